import Report
import Testing

/// How durations read in estimates, ETAs and pages.
struct FormatTests {
    /// Each unit from a millisecond to hours, the largest two that matter: a plan's estimate of
    /// several hours read "286 min 54 s".
    @Test func aDurationReadsInTheUnitsAPersonSaysIt() {
        #expect(Format.duration(0.0852) == "85.2 ms")
        #expect(Format.duration(1.42) == "1.42 s")
        #expect(Format.duration(185) == "3 min 5 s")
        #expect(Format.duration(7199) == "119 min 59 s")
        #expect(Format.duration(17_214) == "4 h 46 min")
    }
}
