import CLaminaKernels

/// Which pixel kernels this process draws with: chosen once, at the first draw, from the CPU
/// and `LAMINA_KERNELS` (`scalar`, `avx2`, `avx512`), so one machine can run, test and count
/// the instructions of every path (valgrind runs AVX2 and scalar, not AVX-512).
public enum RasterKernels {
    /// `avx512`, `avx2` or `scalar` on x86-64 (the widest the CPU has that the variable
    /// allows); `portable` elsewhere, or `scalar` when the variable asks for it.
    public static var active: String {
        switch Blend.Level.current {
        case .avx512: return "avx512"
        case .avx2: return "avx2"
        case .portable:
            #if arch(x86_64)
            return "scalar"
            #else
            return NonZeroRule.vectorSweep ? "portable" : "scalar"
            #endif
        }
    }
}
