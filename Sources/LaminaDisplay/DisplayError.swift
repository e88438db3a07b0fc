/// Why an output could not be brought up.
public enum DisplayError: Error, CustomStringConvertible {
    /// No connector has a display plugged in.
    case noConnectedConnector(device: String)
    /// The configured connector does not exist; `available` lists those that do.
    case connectorNotFound(name: String, available: [String])
    /// The connector offers no mode.
    case noMode(connector: String)
    /// The requested mode is not among those the connector offers.
    case modeNotOffered(request: ModeRequest, connector: String, available: [String])
    /// No plane of the connector's CRTC scans out `format`.
    case formatNotScannedOut(format: PixelFormat, connector: String)
    /// No CRTC can drive the connector.
    case noCRTC(connector: String)
    /// A device call failed.
    case kms(KMSError)

    /// The asked-for connector is not there (or none is connected): the display can run dark.
    var isMissingConnector: Bool {
        switch self {
        case .noConnectedConnector, .connectorNotFound: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .noConnectedConnector(let device): return "\(device): no connected connector"
        case .connectorNotFound(let name, let available):
            return "connector '\(name)' not found (available: \(available.joined(separator: ", ")))"
        case .noMode(let c): return "\(c): the connector reports no modes"
        case .modeNotOffered(let request, let c, let available):
            return "\(c) offers no mode \(request) (it offers: \(available.joined(separator: ", ")))"
        case .formatNotScannedOut(let format, let c):
            return "no primary plane for \(c) scans out \(format.rawValue) (\(format.fourcc))"
        case .noCRTC(let c): return "\(c): no CRTC can drive it"
        case .kms(let e): return e.description
        }
    }
}
