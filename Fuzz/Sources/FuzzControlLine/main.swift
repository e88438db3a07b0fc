import FuzzSupport

/// Request lines of the control socket, split at newlines as the daemon splits them and
/// parsed as it parses them (the nesting check, then JSON into `ControlValue`). Nothing may
/// crash or hang; a line that parses must come back equal from its own reply form
/// (`jsonLine`), which is how the daemon writes values back to clients.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
        guard let value = try? ControlValue.parse(line) else { continue }
        let again = try? ControlValue.parse(Array(value.jsonLine.utf8))
        precondition(again == value, "\(value.jsonLine) does not parse back to itself")
    }
    return 0
}
