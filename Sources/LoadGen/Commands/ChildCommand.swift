import Foundation
import Host
import ObjectGraph
import Report
import SQLiteKit
import Strategies
import Workload

/// The hidden command a child process runs: one measured repetition, its result as JSON on stdout.
///
/// Measurement brackets the strategy's work only: the clock starts after the task is decoded
/// and stops when the strategy returns; peak RSS is read before the verifier runs, so the
/// verifier's own memory never counts against the strategy.
enum ChildCommand {
    static let name = "__child"

    static func main(_ arguments: [String]) -> Int32 {
        guard let json = arguments.first, let task = try? JSONDecoder().decode(ChildTask.self, from: Data(json.utf8)),
            let strategy = task.configuration.writeStrategy
        else {
            FileHandle.standardError.write(Data("loadgen: \(name) is internal to loadgen run\n".utf8))
            return ExitCode.usage
        }
        // Read what the process reads once before the window, so that its first read does not land
        // in the measured allocations of whichever strategy opens a connection first.
        _ = Database.printsSQLFromEnvironment
        _ = ConcurrencyDebug.isEnabled
        let measurement: RunMeasurement
        do {
            try watchParent(removingWhenOrphaned: task.orphanPaths)
            measurement = run(task, strategy: strategy)
        } catch {
            var failed = RunMeasurement(status: .failed)
            failed.fail("\(error)")
            measurement = failed
        }
        guard let data = try? JSONEncoder().encode(measurement) else { return ExitCode.software }
        FileHandle.standardOutput.write(data)
        return ExitCode.success
    }

    static func run(_ task: ChildTask, strategy: any WriteStrategy) -> RunMeasurement {
        var job = StrategyJob(configuration: task.configuration, store: task.store)
        // An in-memory store lives while a connection is open: keep one open from before it is
        // filled (an update, delete or read) until it is verified.
        let keeper = task.store.isInMemory ? try? Database(path: task.store.path) : nil
        if let failed = prepare(&job, task, strategy: strategy) { return failed }
        var measurement = window(&job, task, strategy: strategy)
        check(&measurement, task, strategy: strategy, target: job.operationTarget, keeper: keeper)
        withExtendedLifetime(keeper) {}
        return measurement
    }

    /// Before the window: the model file read and its roles found (the bundled models are parsed
    /// once per process), and for an update, delete or read the store filled, the targets found
    /// and the strategy prepared, so the window measures the strategy alone. A failure here is
    /// the repetition's measurement.
    private static func prepare(_ job: inout StrategyJob, _ task: ChildTask, strategy: any WriteStrategy)
        -> RunMeasurement?
    {
        do { _ = try job.importSource() } catch {
            var failed = RunMeasurement(status: .failed)
            failed.fail("\(error)")
            return failed
        }
        guard task.configuration.operation.needsFilledStore else { return nil }
        do {
            if let template = task.prefillTemplate, let target = PrefilledStore.restore(template, into: job.store) {
                job.operationTarget = target
            } else {
                let target = try OperationSetup.prepare(job)
                job.operationTarget = target
                if let template = task.prefillTemplate { PrefilledStore.save(job.store, target: target, as: template) }
            }
            job.prepared = try strategy.setUp(job)
            return nil
        } catch {
            var failed = RunMeasurement(status: .failed)
            failed.fail("filling the store before the \(task.configuration.operation.rawValue): \(error)")
            return failed
        }
    }

    /// The timed window: the strategy's `run`, bracketed by the clock, CPU time, instructions and
    /// allocations, with the sampler watching memory; then what the window measured.
    private static func window(_ job: inout StrategyJob, _ task: ChildTask, strategy: any WriteStrategy)
        -> RunMeasurement
    {
        let sqlBefore = job.counters.snapshot()
        let objectsBefore = job.objectWork.snapshot()
        let timeline = task.timelinePath.flatMap { try? TimelineWriter(path: $0, runID: task.runID) }
        let display = ProgressDisplay(style: task.progress, label: task.label, total: task.configuration.workload.rows)
        let start = Clock.nanoseconds()
        // Under callgrind every thread's instructions count, and the sampler's depend on time:
        // it does not run there (nor would its memory figures mean anything).
        let sampler =
            task.underCallgrind
            ? nil
            : Sampler(
                progress: job.progress, timeline: timeline, display: display,
                startedAt: start)
        do { try sampler?.start() } catch {
            var failed = RunMeasurement(status: .failed)
            failed.fail("\(error)")
            return failed
        }
        let cpuStart = CPUTime.now()
        var measurement = RunMeasurement(status: .ok)
        // The work counters bracket the strategy alone: instructions (a hardware counter, or
        // callgrind between the two window marks) and allocation requests.
        let instructionCounter = WorkCounters.InstructionCounter.start()
        let allocationsBefore = WorkCounters.allocations()
        loadgenWindowOpen()
        do { measurement.strategy = try strategy.run(job) } catch { measurement.fail("\(error)") }
        loadgenWindowClose()
        job.prepared = nil   // what setUp kept (a screen, its container) goes with the window
        let allocationsAfter = WorkCounters.allocations()
        record(instructionCounter, allocations: (allocationsBefore, allocationsAfter), into: &measurement)
        let wall = Clock.seconds(since: start)
        let cpu = CPUTime.now() - cpuStart
        measurement.endHeapBytes = Heap.allocatedBytes()
        measurement.endRSSBytes = ProcessMemory.statusResidentBytes()
        measurement.peakRSSBytes = ProcessMemory.peakResidentBytes()
        let sampled = sampler?.stop()
        timeline?.close()
        measurement.peakHeapBytes = max(sampled?.peakHeapBytes ?? 0, measurement.endHeapBytes ?? 0)
        measurement.wallSeconds = wall
        measurement.cpuUserSeconds = cpu.user
        measurement.cpuSystemSeconds = cpu.system
        measurement.rowsDone = job.progress.value
        measurement.sql = job.counters.snapshot() - sqlBefore
        measurement.objects = job.objectCounts(since: objectsBefore)
        measurement.prefillSeconds = job.operationTarget?.fillSeconds
        measurement.targets = job.operationTarget?.expected
        recordLatency(job, rate: task.configuration.rate, wall: wall, into: &measurement)
        return measurement
    }

    /// Instructions (or why they were not counted) and allocations of the window.
    private static func record(
        _ instructions: Result<WorkCounters.InstructionCounter, WorkCounters.CounterUnavailable>,
        allocations: (before: WorkCounters.Allocations?, after: WorkCounters.Allocations?),
        into measurement: inout RunMeasurement
    ) {
        switch instructions {
        case .success(let counter):
            measurement.instructions = counter.stop()
            measurement.instructionsCountedBy = measurement.instructions == nil ? nil : counter.countedBy
        case .failure(let reason):
            measurement.instructionsUnavailable = reason.description
        }
        if let before = allocations.before, let after = allocations.after {
            measurement.allocations = (after - before).count
            measurement.allocatedBytesTotal = (after - before).bytes
        }
    }

    /// An open-loop run's latency to commit, its backlog, and whether it kept up with `rate`.
    private static func recordLatency(
        _ job: StrategyJob, rate: Double?, wall: Double, into measurement: inout RunMeasurement
    ) {
        guard let rate, measurement.strategy != nil else { return }
        let latency = job.latency.snapshot
        measurement.strategy?.latencyP50Milliseconds = latency.quantileMilliseconds(0.5)
        measurement.strategy?.latencyP99Milliseconds = latency.quantileMilliseconds(0.99)
        measurement.strategy?.latencyMaxMilliseconds = latency.maxMilliseconds
        measurement.strategy?.peakBacklog = job.latency.peakBacklog
        // Arrivals are paced, so a strategy that keeps up takes records about as fast as they
        // arrive; one that cannot falls behind the schedule and its backlog grows.
        measurement.strategy?.fellBehind = Double(job.progress.value) / wall < rate * 0.95
    }

    /// After the window: connections left open, the verifier's findings and the screen's, each
    /// failing the repetition with its reason.
    private static func check(
        _ measurement: inout RunMeasurement, _ task: ChildTask, strategy: any WriteStrategy,
        target: OperationTarget?, keeper: Database?
    ) {
        // Everything the strategy opened must be closed by now: a connection left open keeps
        // its WAL unmerged (the store looks bigger) and means a context or coordinator outlived
        // the strategy. It fails the repetition, so that a leak can never hide in a summary.
        let leaked = Database.openConnections - (keeper == nil ? 0 : 1)
        measurement.leakedConnections = leaked
        if leaked > 0 { measurement.fail("left \(leaked) SQLite connection\(leaked == 1 ? "" : "s") open") }
        measurement.verification = verify(task, strategy: strategy, target: target, measurement: &measurement)
        // An import's screen that follows every record (a controller over all of them, or the
        // history consumer's) should show every row; a list shows what it fetched, a limited
        // controller its first rows, and an update's or delete's screen its list only, so rows
        // they do not show are not missing from them.
        let followsEveryRecord = task.configuration.screen.map { $0 == .controller(nil) } ?? true
        if task.configuration.operation == .import, followsEveryRecord, let shown = measurement.strategy?.viewObjects,
            let rows = measurement.verification?.storeRows
        {
            measurement.verification?.viewMissing = rows - shown
        }
        if let problems = measurement.verification?.problems(strategy.expectations), !problems.isEmpty {
            measurement.fail("verifier: " + problems.joined(separator: ", "))
        }
    }

    /// Checks the store on a connection of its own; a verifier failure is recorded, not hidden.
    private static func verify(
        _ task: ChildTask, strategy: any WriteStrategy, target: OperationTarget?,
        measurement: inout RunMeasurement
    ) -> Verification? {
        var job = StrategyJob(configuration: task.configuration, store: task.store)
        job.operationTarget = target
        let started = Clock.nanoseconds()
        defer { measurement.verifySeconds = Clock.seconds(since: started) }
        do {
            let verification = try job.verifyStore(repeated: strategy.repeatedKey)
            if let target {
                let problems = try OperationSetup.problems(job, target, counters: measurement.strategy)
                if !problems.isEmpty { measurement.fail("verifier: " + problems.joined(separator: ", ")) }
            }
            return verification
        } catch {
            measurement.fail("verifier: \(error)")
            return nil
        }
    }

    /// Ends this process if the parent dies, removing `paths` first: a killed `loadgen run`
    /// must not leave a child writing a store, nor the store, that nobody will remove.
    private static func watchParent(removingWhenOrphaned paths: [String]) throws(ThreadStartError) {
        let parent = Posix.parentProcessID
        let started = DispatchSemaphore(value: 0)
        try BackgroundThread.start(name: "loadgen.parent-watch") {
            WorkCounters.excludeCallingThread()
            started.signal()
            while Posix.parentProcessID == parent { Posix.sleep(microseconds: 100_000) }
            for path in paths { try? FileManager.default.removeItem(atPath: path) }
            Posix.exitImmediately(ExitCode.interrupted)
        }
        // A starting thread allocates (its Foundation state): let it finish before anything is
        // measured, or those allocations would land in a window now and then.
        started.wait()
    }
}
