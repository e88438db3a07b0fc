import FoundationEssentials
import LaminaGeometry
import LaminaInput
import LaminaSystem

/// Where a calibration goes: `[input] calibration` in Lamina's config file (only Lamina
/// applies it), or a udev rule setting `LIBINPUT_CALIBRATION_MATRIX` (every libinput client
/// on the machine applies it).
public enum CalibrationOutput {
    /// The comment written after the config line, so a reader knows where it came from.
    static let provenance = "# lamina calibrate"

    /// `text` (a config file) with `calibration` in its `[input]` table set to `matrix`: the
    /// line replaced if there is one, else added under the table's header, else the table
    /// added at the end. Everything else — comments, order, other tables — stays as written.
    public static func settingCalibration(_ matrix: CalibrationMatrix, in text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let entry = "calibration = \"\(matrix)\"  \(provenance)"
        func isHeader(_ line: String) -> Bool { line.trimmed().hasPrefix("[") }
        func header(_ line: String) -> String {
            let trimmed = line.trimmed()
            let end = trimmed.firstIndex(of: "]") ?? trimmed.endIndex
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<end]).trimmed()
        }
        if let start = lines.firstIndex(where: { isHeader($0) && header($0) == "input" && !$0.contains("[[") }) {
            let end = lines[(start + 1)...].firstIndex(where: isHeader) ?? lines.endIndex
            if let existing = lines[(start + 1)..<end].firstIndex(where: {
                let key = $0.trimmed()
                return key.hasPrefix("calibration") && String(key.dropFirst("calibration".count)).trimmed().hasPrefix("=")
            }) {
                lines[existing] = entry
            } else {
                lines.insert(entry, at: start + 1)
            }
        } else {
            if lines.last == "" { lines.removeLast() }
            if let last = lines.last, !last.isEmpty { lines.append("") }
            lines += ["[input]", entry, ""]
        }
        return lines.joined(separator: "\n")
    }

    /// Writes `matrix` into the config file at `path` in one step: the new text is staged
    /// beside it with the file's permissions, read back as a config (it must load and carry
    /// the matrix, else nothing changes), then renamed over the file.
    public static func write(_ matrix: CalibrationMatrix, toConfig path: String, sceneNames: [String]) throws {
        let text = try InputFile.text(atPath: path)
        let staging = path + ".lamina-calibrate"
        defer { Paths.remove(staging) }
        try Data(settingCalibration(matrix, in: text).utf8).write(to: URL(fileURLWithPath: staging))
        Paths.setPermissions(staging, Paths.permissions(path) ?? 0o644)
        let written = try LaminaConfig.load(path: staging, sceneNames: sceneNames)
        // The file holds six decimals: what it reads back is the matrix to within their rounding.
        guard let numbers = written.calibration, numbers.count == 6,
              zip(numbers, matrix.values).allSatisfy({ abs($0 - $1) <= 1e-5 }) else {
            throw CalibrationWriteError(path: path, reason: "the edited file does not read back as this calibration; set [input] calibration = \"\(matrix)\" by hand")
        }
        try Paths.rename(staging, over: path)
    }

    /// A udev rule giving every touchscreen `matrix` (for `/etc/udev/rules.d/`; libinput reads
    /// it when the device is added, so replug or reboot after installing it).
    public static func udevRule(_ matrix: CalibrationMatrix) -> String {
        """
        # /etc/udev/rules.d/99-touchscreen-calibration.rules (written by lamina calibrate)
        ACTION=="add|change", KERNEL=="event*", ENV{ID_INPUT_TOUCHSCREEN}=="1", ENV{LIBINPUT_CALIBRATION_MATRIX}="\(matrix)"
        """
    }
}

/// The config file could not take the calibration.
public struct CalibrationWriteError: Error, CustomStringConvertible {
    /// The config file.
    public var path: String
    /// Why not.
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}
