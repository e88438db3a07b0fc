import LaminaRuntime
import LaminaSystem
import Logging
import SystemPackage

/// A scene file on a runtime: installing a compiled one, watching its file and reading it
/// again when it is edited (live reload). The daemon decides which file and when; this is
/// the only code that knows the scene is a `FileScene`.
extension SceneFiles {
    /// Installs the scene `document` describes, with `kept` binding values where it still
    /// declares them; its background, when it sets one, replaces the runtime's. A reload of
    /// the file that runs (the same path) starts in the state it was in, and each template use
    /// in its own, when the file still has that state.
    public static func install(_ document: SceneDocument, keeping kept: [String: BindingValue] = [:],
                               in runtime: Runtime) throws {
        var settings = FileScene.Settings(document: document, bindingValues: kept)
        if let running = runtime.scene as? FileScene, running.document.file == document.file {
            settings.state = running.currentState
            settings.useStates = running.useStates
            settings.videoPlayers = running.videoPlayers
        }
        try runtime.install(FileScene.self, settings: settings)
        if let background = document.background { runtime.background = background }
    }

    /// Watches the folder of the scene file at `path` (nil: stops watching); a write to the
    /// file, or a rename over it, calls `edited` on the loop. Without inotify the log says so
    /// and the watch is off.
    public static func watch(path: String?, on runtime: Runtime, logger: Logger, edited: @escaping () -> Void) {
        guard let path else {
            runtime.setLoopSource(nil, forKey: SceneFileWatch.key)
            return
        }
        let directory = Paths.directory(of: path)
        let folder = directory.isEmpty ? "." : directory
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let watcher: FolderWatcher
        do {
            watcher = try FolderWatcher(folder: folder)
        } catch {
            logger.warning("cannot watch \(folder) for edits (\(error)): live reload is off (SIGHUP reloads)")
            runtime.setLoopSource(nil, forKey: SceneFileWatch.key)
            return
        }
        runtime.setLoopSource(SceneFileWatch(watcher: watcher) { names in
            if names.contains(name) { edited() }
        }, forKey: SceneFileWatch.key)
        logger.info("watching \(path) for edits")
    }

    /// Reads the scene file at `path` again (off the loop, through the runtime's scene
    /// loader, with `overrides` for its bindings) and swaps the scene, keeping the running
    /// scene file's binding values; `done` gets why the edit was rejected (nil: shown).
    public static func reload(path: String, overrides: SettingsTable?, on runtime: Runtime, logger: Logger,
                              done: @escaping (String?) -> Void = { _ in }) {
        runtime.sceneLoader.request("scene-file \(path)", prepare: {
            {
                let loaded = Result { () throws(ConfigError) in try load(path: path, overrides: overrides) }
                return { [unowned runtime] in
                    let document: SceneDocument
                    switch loaded {
                    case .success(let d): document = d
                    case .failure(let error):
                        logger.error("scene file edit rejected, keeping the running scene: \(error)")
                        runtime.notifier?.notify("STATUS=scene file edit rejected: \(error)")
                        return "\(error)"
                    }
                    let kept = (runtime.scene as? FileScene)?.bindingValues ?? [:]
                    do {
                        try install(document, keeping: kept, in: runtime)
                    } catch {
                        logger.error("the edited scene could not be built: \(error)")
                        return "\(error)"
                    }
                    logger.notice("scene file reloaded: \(path) (\(document.layerCount) layers)")
                    runtime.notifier?.notify("STATUS=scene file reloaded: \(path)")
                    return nil
                }
            }
        }, done: done)
    }
}

/// The running scene file's folder on the loop: the names of files written or renamed in
/// are read right after the wait and handed to `changed` (live reload).
final class SceneFileWatch: LoopSource {
    /// The key it is registered under (one scene file is watched at a time).
    static let key = "scene-file-watch"
    private let watcher: FolderWatcher
    private let changed: (Set<String>) -> Void

    init(watcher: FolderWatcher, changed: @escaping (Set<String>) -> Void) {
        self.watcher = watcher
        self.changed = changed
    }

    let phase = LoopPhase.woken
    var wakeDescriptors: [FileDescriptor] { [watcher.descriptor] }
    func nextDeadline(now: Double) -> Double? { nil }

    func service(now: Double) -> Bool {
        let names = watcher.drain()
        if !names.isEmpty { changed(names) }
        return false
    }
}
