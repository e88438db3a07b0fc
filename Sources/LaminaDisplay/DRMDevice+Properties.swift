import CDRM
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// KMS object properties, planes and the panel orientation: read through
/// `drmModeObjectGetProperties` and `drmModeGetProperty`.
extension DRMDevice {
    /// A KMS object's properties by name, with their current values.
    func properties(of object: UInt32, type: UInt32) -> [String: (id: UInt32, value: UInt64, enums: [UInt64: String])] {
        guard let list = drmModeObjectGetProperties(fd, object, type) else { return [:] }
        defer { drmModeFreeObjectProperties(list) }
        var result: [String: (id: UInt32, value: UInt64, enums: [UInt64: String])] = [:]
        for i in 0..<Int(list.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, list.pointee.props[i]) else { continue }
            defer { drmModeFreeProperty(property) }
            let name = Self.string(property.pointee.name)
            var enums: [UInt64: String] = [:]
            for e in 0..<Int(property.pointee.count_enums) {
                enums[property.pointee.enums[e].value] = Self.string(property.pointee.enums[e].name)
            }
            result[name] = (property.pointee.prop_id, list.pointee.prop_values[i], enums)
        }
        return result
    }

    /// The id of a named property of an object, for atomic requests.
    func propertyID(of object: UInt32, type: UInt32, named name: String) throws(KMSError) -> UInt32 {
        guard let found = properties(of: object, type: type)[name] else {
            throw KMSError(call: "drmModeObjectGetProperties", errno: Errno.invalidArgument,
                           detail: "object \(object) has no property '\(name)'")
        }
        return found.id
    }

    /// The connector's `panel orientation`, if it has the property and a known value.
    func panelOrientation(connector: UInt32) -> PanelOrientation? {
        guard let property = properties(of: connector, type: UInt32(DRM_MODE_OBJECT_CONNECTOR))["panel orientation"],
              let name = property.enums[property.value] else { return nil }
        return PanelOrientation(rawValue: name)
    }

    /// Every plane (universal planes are on), with its kind and formats.
    func planes(crtcs: [UInt32]) -> [KMSPlane] {
        guard let resources = drmModeGetPlaneResources(fd) else { return [] }
        defer { drmModeFreePlaneResources(resources) }
        var planes: [KMSPlane] = []
        for i in 0..<Int(resources.pointee.count_planes) {
            guard let plane = drmModeGetPlane(fd, resources.pointee.planes[i]) else { continue }
            defer { drmModeFreePlane(plane) }
            let id = plane.pointee.plane_id
            let formats = (0..<Int(plane.pointee.count_formats)).map { Self.fourcc(plane.pointee.formats[$0]) }
            let possible = crtcs.enumerated().filter { plane.pointee.possible_crtcs & (1 << UInt32($0.offset)) != 0 }.map(\.element)
            let type = properties(of: id, type: UInt32(DRM_MODE_OBJECT_PLANE))["type"]?.value
            let kind: KMSPlane.Kind = type == UInt64(DRM_PLANE_TYPE_PRIMARY) ? .primary
                : type == UInt64(DRM_PLANE_TYPE_CURSOR) ? .cursor : .overlay
            planes.append(KMSPlane(id: id, kind: kind, formats: formats, possibleCRTCs: possible))
        }
        return planes
    }

    /// A fourcc code as its four characters (`XR24`).
    static func fourcc(_ code: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }.filter { $0 != 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A fixed-size C string field (a property or mode name).
    static func string<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
