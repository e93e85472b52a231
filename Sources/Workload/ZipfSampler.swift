import Host

/// Draws ranks 1…n with probability proportional to 1/k^s, for any n, in constant time.
///
/// Rejection-inversion (Hörmann and Derflinger, 1996): no table of n weights, so the number
/// of keys can change with every draw (it grows as the stream produces new keys) at no cost.
package struct ZipfSampler: Sendable, Equatable {
    package let s: Double
    private let hIntegralX1: Double
    private let sCoefficient: Double

    package init(s: Double) {
        precondition(s > 0, "Zipf exponent must be positive")
        self.s = s
        let x1 = Self.hIntegral(1.5, s) - 1
        hIntegralX1 = x1
        sCoefficient = 2 - Self.hIntegralInverse(Self.hIntegral(2.5, s) - Self.h(2, s), s)
    }

    /// A rank in 1…n. `uniform(attempt)` supplies independent uniforms in [0, 1); a draw
    /// usually needs one, rarely a few more.
    @inline(__always)
    package func rank(n: Int, uniform: (Int) -> Double) -> Int {
        if n <= 1 { return 1 }
        let hN = Self.hIntegral(Double(n) + 0.5, s)
        var attempt = 0
        while true {
            let u = hN + uniform(attempt) * (hIntegralX1 - hN)
            let x = Self.hIntegralInverse(u, s)
            var k = Int(x + 0.5)
            if k < 1 { k = 1 } else if k > n { k = n }
            if Double(k) - x <= sCoefficient || u >= Self.hIntegral(Double(k) + 0.5, s) - Self.h(Double(k), s) {
                return k
            }
            attempt += 1
        }
    }

    // MARK: The integral of the hat function and its inverse

    @inline(__always)
    static func h(_ x: Double, _ s: Double) -> Double { exp(-s * log(x)) }

    @inline(__always)
    static func hIntegral(_ x: Double, _ s: Double) -> Double {
        let logX = log(x)
        return helper2((1 - s) * logX) * logX
    }

    @inline(__always)
    static func hIntegralInverse(_ x: Double, _ s: Double) -> Double {
        var t = x * (1 - s)
        if t < -1 { t = -1 }   // numerical safety, as in the reference implementation
        return exp(helper1(t) * x)
    }

    /// log1p(x)/x, exact near 0.
    @inline(__always)
    static func helper1(_ x: Double) -> Double {
        abs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x))
    }

    /// expm1(x)/x, exact near 0.
    @inline(__always)
    static func helper2(_ x: Double) -> Double {
        abs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1 + 0.25 * x))
    }
}
