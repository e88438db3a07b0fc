import LaminaGeometry
import LaminaSystem
import SystemPackage

/// A panel's backlight through sysfs (`/sys/class/backlight/NAME`: `brightness`,
/// `max_brightness`, `actual_brightness`, `bl_power`), the kernel's file protocol. Levels are
/// fractions 0…1 of `max_brightness`; 0 turns the light off (and `bl_power` to 4, powered
/// down), anything else on (`bl_power` 0).
public final class Backlight {
    /// The device's folder.
    public let path: String
    /// The device's name (the folder's).
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }
    /// The largest raw value `brightness` takes.
    public let maxBrightness: Int

    /// The device at `path`; throws when it has no readable `max_brightness` of at least 1.
    public init(path: String) throws(BacklightError) {
        self.path = path
        let text: String
        do {
            text = try SysfsFile.read(path + "/max_brightness")
        } catch {
            throw BacklightError(path: path, reason: "cannot read max_brightness: \(error)")
        }
        guard let max = Int(text), max >= 1, max <= 1 << 30 else {
            throw BacklightError(path: path, reason: "max_brightness is '\(Escaped(text))', not a whole number ≥ 1")
        }
        maxBrightness = max
    }

    /// The device to use under `root` (`/sys/class/backlight`): the one named `name`, else the
    /// first by the kernel's preference of type (`firmware`, then `platform`, then `raw`), else
    /// nil when there is none.
    public static func find(root: String = "/sys/class/backlight", name: String? = nil) throws(BacklightError) -> Backlight? {
        if let name {
            guard !name.contains("/"), name != "..", name != "." else {
                throw BacklightError(path: root, reason: "'\(Escaped(name))' is not a backlight's name")
            }
            return try Backlight(path: root + "/" + name)
        }
        let order = ["firmware", "platform", "raw"]
        let candidates = SysfsFile.entries(of: root).map { entry in
            (entry, (try? SysfsFile.read(root + "/" + entry + "/type")).flatMap { order.firstIndex(of: $0) } ?? order.count)
        }
        guard let best = candidates.min(by: { $0.1 < $1.1 }) else { return nil }
        return try Backlight(path: root + "/" + best.0)
    }

    /// The raw value for `level`: 0 only for 0, else at least 1 (a light dimmed all the way
    /// stays on).
    public func raw(for level: Double) -> Int {
        let clamped = min(max(level.isNaN ? 1 : level, 0), 1)
        if clamped == 0 { return 0 }
        return max(1, Int((clamped * Double(maxBrightness)).rounded()))
    }

    /// The level the hardware reports (`actual_brightness`, else `brightness`), 0…1.
    public func level() throws(BacklightError) -> Double {
        let text: String
        do {
            text = try (try? SysfsFile.read(path + "/actual_brightness")) ?? SysfsFile.read(path + "/brightness")
        } catch {
            throw BacklightError(path: path, reason: "cannot read the brightness: \(error)")
        }
        guard let raw = Int(text) else { throw BacklightError(path: path, reason: "brightness is '\(Escaped(text))'") }
        return Double(min(max(raw, 0), maxBrightness)) / Double(maxBrightness)
    }

    /// Sets the light to `level` (0…1): `bl_power` first when turning on, last when off.
    public func set(_ level: Double) throws(BacklightError) {
        let value = raw(for: level)
        do {
            if value > 0 { try writePower(on: true) }
            try SysfsFile.write(String(value), to: path + "/brightness")
            if value == 0 { try writePower(on: false) }
        } catch {
            throw BacklightError(path: path, reason: "cannot set the brightness to \(value): \(error)")
        }
    }

    private func writePower(on: Bool) throws(Errno) {
        // Optional in the protocol: a device without bl_power is driven by brightness alone.
        guard (try? SysfsFile.read(path + "/bl_power")) != nil else { return }
        try SysfsFile.write(on ? "0" : "4", to: path + "/bl_power")
    }
}

/// A backlight that cannot be used: which device and why.
public struct BacklightError: Error, CustomStringConvertible {
    /// The device's folder.
    public var path: String
    /// Why.
    public var reason: String
    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
