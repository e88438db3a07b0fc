import LaminaRuntime
import SystemPackage

/// The control socket on a runtime: the port registers on the loop as one of its sources and
/// receives what the runtime publishes; the runtime knows neither.
extension Runtime {
    /// The control socket, when one is open (`openControlSocket(path:)`).
    public var control: ControlServer? { controlPort?.server }

    /// Opens the control socket at `path` (mode 0660; root, this user and `group`'s members
    /// may connect). A socket left there by an earlier run is replaced.
    public func openControlSocket(path: String, group: UInt32? = nil) throws(Errno) {
        let port = controlPort ?? ControlPort(runtime: self)
        try port.open(path: path, group: group)
        setLoopSource(port, forKey: ControlPort.key)
        onPublish = { [unowned port] kind, fields in port.publish(kind, fields) }
    }

    /// Closes the control socket and removes its file.
    public func closeControlSocket() {
        guard let port = controlPort else { return }
        port.close()
        onPublish = nil
        setLoopSource(nil, forKey: ControlPort.key)
    }

    /// The port registered on the loop, when a socket was opened.
    var controlPort: ControlPort? { loopSource(forKey: ControlPort.key) as? ControlPort }
}
