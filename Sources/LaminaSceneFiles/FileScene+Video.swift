import LaminaVideo

extension FileScene {
    /// Gives a `video` layer its player: the clip opened and decoding at once, looping, at
    /// the rate and with the sound (`muted: false`, `volume`) the file says, playing unless
    /// `playing: false`. Its events are published as
    /// `video` events naming the layer, with `action` `ready`, `ended` or `failed`. A clip
    /// GStreamer cannot open is logged and published, and the layer shows its background:
    /// the scene runs on. After a reload, a layer with the name and source of a running video
    /// takes that player on as it is (playing where it was, at its rate, looping or not).
    func attachPlayer(to layer: VideoLayer, _ spec: LayerSpec) -> VideoPlayer? {
        var source: VideoSource?, loops = false, autoplay = true, rate = 1.0, muted = true, volume = 1.0
        for entry in spec.setup {
            switch entry {
            case .videoSource(let s): source = s
            case .loops(let l): loops = l
            case .autoplay(let a): autoplay = a
            case .playbackRate(let r): rate = r
            case .overlayPlane(let allowed): layer.usesOverlayPlane = allowed
            case .muted(let m): muted = m
            case .volume(let v): volume = v
            default: break
            }
        }
        guard let source else { return nil }
        let name = spec.name ?? ""
        let publish: (String, String?) -> Void = { [weak self] event, reason in
            var fields: [String: ControlValue] = ["layer": .string(name), "action": .string(event)]
            if let reason { fields["reason"] = .string(reason) }
            self?.context.publish("video", fields)
        }
        let player: VideoPlayer
        let kept = spec.name.flatMap { keptVideoPlayers.removeValue(forKey: $0) }
        if let kept, kept.source == source {
            player = kept
            player.adopt(context)
        } else {
            do {
                player = try VideoPlayer(source: source, context: context, loops: loops)
            } catch {
                context.logger.error("\(spec.elementPath): \(error)")
                publish("failed", error.description)
                return nil
            }
            player.rate = rate
            player.volume = volume
            player.isMuted = muted
            if autoplay { player.play() }
        }
        player.name = spec.name
        player.onEvent = { event in
            switch event {
            case .ready: publish("ready", nil)
            case .ended: publish("ended", nil)
            case .failed(let reason): publish("failed", reason)
            }
        }
        layer.player = player
        return player
    }
}
