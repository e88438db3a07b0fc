import CLaminaKernels

/// Premultiplied source-over compositing on packed `0xAARRGGBB` pixels, in 8-bit fixed
/// point: `dst = src · m + dst · (1 − srcAlpha · m)` for a coverage `m`.
enum Blend {
    /// `x / 255` rounded to nearest, for two 16-bit lanes packed in one word
    /// (`x + 128 + ((x + 128) >> 8)) >> 8` per lane).
    @inline(__always)
    static func div255Lanes(_ x: UInt32) -> UInt32 {
        let t = x &+ 0x0080_0080
        return ((t &+ ((t >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    }

    /// Every channel of `p` times `m / 255` (`m` in 0…255), rounded.
    @inline(__always)
    static func scale(_ p: UInt32, by m: UInt32) -> UInt32 {
        let rb = div255Lanes((p & 0x00FF_00FF) &* m)
        let ag = div255Lanes(((p >> 8) & 0x00FF_00FF) &* m)
        return rb | (ag << 8)
    }

    /// `src` over `dst`; `src` is premultiplied.
    @inline(__always)
    static func over(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        let inverseAlpha = 255 - (src >> 24)
        return src &+ scale(dst, by: inverseAlpha)
    }

    /// `src` through coverage `m` (1…255) over the pixel at `p`: the per-pixel step every
    /// paint shares. An opaque source at full coverage simply replaces the pixel, which is
    /// exactly what `over` gives too.
    @inline(__always)
    static func composite(_ src: UInt32, coverage m: UInt32, into p: UnsafeMutablePointer<UInt32>) {
        if m >= 255 {
            p.pointee = src >> 24 == 255 ? src : over(src, p.pointee)
        } else {
            p.pointee = over(scale(src, by: m), p.pointee)
        }
    }

    /// `x / 255` rounded, lane by lane (`(t + (t >> 8)) >> 8` with `t = x + 128`).
    @inline(__always)
    static func div255(_ x: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let t = x &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// True when the CPU runs the AVX2 kernels of CLaminaKernels (checked once).
    static let hasAVX2 = lamina_kernels_have_avx2() != 0
    /// True when the CPU runs the AVX-512 kernels (checked once).
    static let hasAVX512 = lamina_kernels_have_avx512() != 0

    /// The widest kernels this process runs, as a value a sink keeps: reading a global `let`
    /// costs a call to `swift_once` every time, twice a row in a hot sweep.
    enum Level {
        case portable, avx2, avx512

        /// What the CPU and `LAMINA_KERNELS` allow (checked once).
        static var current: Level { hasAVX512 ? .avx512 : hasAVX2 ? .avx2 : .portable }

        /// The level as the C kernels take it: 0 portable, 1 AVX2, 2 AVX-512.
        var kernels: Int32 {
            switch self {
            case .portable: 0
            case .avx2: 1
            case .avx512: 2
            }
        }
    }

    /// Sets `count` pixels to `color` (an opaque run at full coverage): 64- or 32-byte
    /// stores where the CPU has them, else Swift's own loop.
    @inline(__always)
    static func fill(_ color: UInt32, _ row: UnsafeMutablePointer<UInt32>, _ count: Int, level: Level = .current) {
        if count < 8 {
            row.update(repeating: color, count: count)
            return
        }
        switch level {
        case .avx512: lamina_fill_avx512(color, row, count)
        case .avx2: lamina_fill_avx2(color, row, count)
        case .portable: row.update(repeating: color, count: count)
        }
    }

    /// `src` over each of `count` pixels with the same rounding as `over`, bit for bit:
    /// sixteen pixels per instruction with AVX-512 or eight with AVX2 where the CPU has them,
    /// else `runOverPortable`.
    @inline(__always)
    static func runOver(_ src: UInt32, _ row: UnsafeMutablePointer<UInt32>, _ count: Int, level: Level = .current) {
        switch level {
        case .avx512: lamina_blend_run_avx512(src, row, count)
        case .avx2: lamina_blend_run_avx2(src, row, count)
        case .portable: runOverPortable(src, row, count)
        }
    }

    /// `src` over each of `count` pixels with the same rounding as `over`, bit for bit.
    /// Four pixels at a time: the 16 bytes are read as eight 16-bit lanes, whose low bytes are
    /// B and R and high bytes G and A, so each half is scaled with 16-bit multiplies.
    static func runOverPortable(_ src: UInt32, _ row: UnsafeMutablePointer<UInt32>, _ count: Int) {
        let inverse = SIMD8<UInt16>(repeating: UInt16(255 - (src >> 24)))
        let src4 = SIMD4<UInt32>(repeating: src)
        let low = SIMD8<UInt16>(repeating: 0x00FF)
        let raw = UnsafeMutableRawPointer(row)
        var i = 0
        while i + 8 <= count {
            // Two independent groups of four per step, for instruction-level parallelism.
            let d0 = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt16>.self)
            let d1 = raw.loadUnaligned(fromByteOffset: i * 4 + 16, as: SIMD8<UInt16>.self)
            let br0 = div255((d0 & low) &* inverse), ga0 = div255((d0 &>> 8) &* inverse)
            let br1 = div255((d1 & low) &* inverse), ga1 = div255((d1 &>> 8) &* inverse)
            let out0 = unsafeBitCast(br0 | (ga0 &<< 8), to: SIMD4<UInt32>.self) &+ src4
            let out1 = unsafeBitCast(br1 | (ga1 &<< 8), to: SIMD4<UInt32>.self) &+ src4
            raw.storeBytes(of: out0, toByteOffset: i * 4, as: SIMD4<UInt32>.self)
            raw.storeBytes(of: out1, toByteOffset: i * 4 + 16, as: SIMD4<UInt32>.self)
            i += 8
        }
        if i + 4 <= count {
            let d = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt16>.self)
            let br = div255((d & low) &* inverse)
            let ga = div255((d &>> 8) &* inverse)
            let scaled = unsafeBitCast(br | (ga &<< 8), to: SIMD4<UInt32>.self)
            raw.storeBytes(of: scaled &+ src4, toByteOffset: i * 4, as: SIMD4<UInt32>.self)
            i += 4
        }
        while i < count {
            row[i] = over(src, row[i])
            i += 1
        }
    }
}
