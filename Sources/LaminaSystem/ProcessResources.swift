#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// What the process holds now: resident memory and open descriptors (Linux `/proc`).
public struct ProcessResources: Sendable, Codable {
    /// Resident memory in bytes (`VmRSS`).
    public var residentBytes: Int
    /// Bytes the C heap has handed out and not taken back (`mallinfo2`: arena and mmapped
    /// chunks in use): the precise measure of growth, without the page-level noise of RSS.
    public var heapBytes: Int
    /// Open file descriptors.
    public var openDescriptors: Int

    /// This process's resources now, read from `/proc/self`.
    public static func current() -> ProcessResources {
        let heap = mallinfo2()
        return ProcessResources(residentBytes: residentPages() * Int(sysconf(Int32(_SC_PAGESIZE))),
                                heapBytes: Int(heap.uordblks) + Int(heap.hblkhd), openDescriptors: descriptorCount())
    }

    /// Large allocations (pixel buffers, offscreens) are mapped on their own and unmapped when
    /// freed, so resident memory follows what the daemon holds instead of keeping the
    /// high-water mark of a heap that buffers of a few megabytes fragment (glibc otherwise
    /// raises its mmap threshold after the first such free).
    public static func returnLargeBuffersToTheSystem() {
        _ = mallopt(M_MMAP_THRESHOLD, 256 * 1024)
    }

    /// The second field of `/proc/self/statm`.
    private static func residentPages() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var size = 0, resident = 0
        return withUnsafeMutablePointer(to: &size) { s in
            withUnsafeMutablePointer(to: &resident) { r in
                withVaList([s, r]) { vfscanf(file, "%ld %ld", $0) } == 2 ? r.pointee : 0
            }
        }
    }

    /// Entries of `/proc/self/fd`, less the one the listing itself holds open.
    private static func descriptorCount() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { count += 1 }
        }
        return count - 1
    }
}
