// swift-tools-version:6.0
// loadgen: measures Core Data–style write strategies on a real SQLite store.
// Only the toolchain and system C libraries: nothing is fetched.
import Foundation
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]

/// The engine's hot paths, in release builds, without the run-time exclusivity checks
/// (measured: about 3% of an import's CPU). Debug builds and tests keep them.
let hot: [SwiftSetting] =
    strict + [
        .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
    ]

/// jemalloc is the executable's allocator unless `LOADGEN_NO_JEMALLOC=1` is set at build time
/// (package-benchmark's BENCHMARK_DISABLE_JEMALLOC): the system's malloc then, its heap figures
/// from the system allocator, the allocation request counts blank and the run says so.
let jemalloc = ProcessInfo.processInfo.environment["LOADGEN_NO_JEMALLOC"].map { $0.isEmpty || $0 == "0" } ?? true

let package = Package(
    name: "loadgen",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "loadgen", targets: ["LoadGen"])
    ],
    targets: [
        // MARK: System libraries
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(
            name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"]), .brew(["jemalloc"])]),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CDarwin"),

        // MARK: Libraries
        .target(name: "SQLiteKit", dependencies: ["CSQLite", "Host"], swiftSettings: hot),
        // The built-in datasets' models, as Xcode writes them, compiled into the binary.
        .target(
            name: "ObjectGraph", dependencies: ["SQLiteKit", "Host"],
            resources: [
                .embedInCode("Model/Bundled/Expenses.contents"), .embedInCode("Model/Bundled/Photos.contents"),
            ],
            swiftSettings: hot),
        .target(name: "Workload", dependencies: ["Host"], swiftSettings: hot),
        // What the operating system provides (the C library, process identity and memory, spawning,
        // limits, the allocator's statistics, the instruction counter), answered in +Linux and
        // +Darwin files (issue 48). It finds jemalloc at run time; only the executable links it
        // (see Heap.swift). Every other target takes the C library from here.
        .target(name: "Host", dependencies: ["CMalloc", "CLinux", "CDarwin"], swiftSettings: strict),
        .target(name: "Report", dependencies: ["SQLiteKit", "Host"], swiftSettings: strict),
        .target(
            name: "Strategies", dependencies: ["ObjectGraph", "Workload", "Report", "SQLiteKit", "Host"],
            swiftSettings: hot),

        // MARK: The executable
        // The charts' gnuplot script, compiled into the binary: plot and report never run a script
        // from the current folder (a results bundle may carry one) unless --script names it.
        .executableTarget(
            name: "LoadGen",
            dependencies: ["Strategies", "Report", "Workload", "Host"] + (jemalloc ? ["CJemalloc"] : []),
            resources: [.embedInCode("Resources/plots.gnuplot")],
            swiftSettings: strict + (jemalloc ? [.define("LOADGEN_JEMALLOC")] : [])),

        // MARK: Tests
        .testTarget(name: "WorkloadTests", dependencies: ["Workload"], swiftSettings: strict),
        .testTarget(
            name: "ReportTests", dependencies: ["Report", "SQLiteKit", "ObjectGraph", "Workload"],
            swiftSettings: strict),
        .testTarget(
            name: "ObjectGraphTests", dependencies: ["ObjectGraph", "SQLiteKit", "Report", "Host"],
            swiftSettings: strict),
        .testTarget(
            name: "StrategiesTests", dependencies: ["Strategies", "Workload", "Report", "ObjectGraph"],
            swiftSettings: strict),
        .testTarget(name: "HostTests", dependencies: ["Host"], swiftSettings: strict),
        .testTarget(name: "LoadGenTests", dependencies: [], swiftSettings: strict),
    ]
)
