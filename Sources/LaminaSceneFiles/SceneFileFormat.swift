/// The scene-file format's own property tables, as the compiler reads them: every layer kind,
/// the keys each takes and the kind of value each key holds. Tools that write scene files —
/// the structure-aware fuzzer's generator, documentation checks — read the format from here,
/// so they follow the compiler instead of a copy of it.
public enum SceneFileFormat {
    /// The kind of value a key holds (`docs/scene-files.md`, Values).
    public enum ValueKind: Sendable, Equatable {
        /// A decimal number (or degrees with `deg`).
        case number
        /// `true` or `false`.
        case boolean
        /// `"#RRGGBB"` and its kin, or `none`.
        case colour
        /// `[x, y]`.
        case point
        /// `[width, height]`.
        case size
        /// `[x, y, width, height]`.
        case rectangle
        /// A list of transform operations, `identity` or `{matrix: [...]}`.
        case transform
        /// One of the words listed.
        case choice([String])
        /// SVG path data.
        case pathData
        /// Text with `{binding}` parts.
        case text
        /// A list of numbers (dash lengths, gradient locations).
        case numbers
        /// A list of colours.
        case colours
        /// A whole number in the range.
        case wholeNumber(ClosedRange<Int>)
        /// A PNG's path relative to the scene file.
        case image
        /// A video's path relative to the scene file, or an `http`, `https`, `rtsp` or `rtsps` URL.
        case video
        /// The name of a number binding the file declares (a control's `binding`).
        case bindingName
        /// `[minimum, maximum]`, rising.
        case range
        /// `$name` of a list binding the file declares (a list's `items`).
        case listBinding
        /// The name of a template the file defines (a list's `row`).
        case templateName
        /// A face: an installed family with an optional weight (`"Noto Sans Arabic"`,
        /// `"DejaVu Sans:bold"`) or a font file relative to the scene file.
        case fontName
    }

    /// Layer kinds, as `kind:` writes them.
    public static var layerKinds: [String] { LayerSpec.Kind.allCases.map(\.rawValue) }

    /// The keys a layer of `kind` takes for its structure (`name`, `sublayers`, `use`...).
    public static let structureKeys = SceneFileCompiler.structureKeys

    /// The top-level keys of a file.
    public static let topLevelKeys = SceneFileCompiler.topLevelKeys

    /// The keys of an animation.
    public static let animationKeys = SceneFileCompiler.animationKeys

    /// The animatable keys of a layer of `kind`, or nil for an unknown kind.
    public static func animatableKeys(of kind: String) -> [String]? {
        LayerSpec.Kind(rawValue: kind).map { $0.layerType.animatableKeyPaths }
    }

    /// The keys set once (not animated) of a layer of `kind`, or nil for an unknown kind.
    public static func setupKeys(of kind: String) -> [String]? {
        LayerSpec.Kind(rawValue: kind)?.setupKeys
    }

    /// What `key` of a layer of `kind` holds; nil when that kind has no such key.
    public static func valueKind(of key: String, in kind: String) -> ValueKind? {
        guard let layerKind = LayerSpec.Kind(rawValue: kind) else { return nil }
        if layerKind.layerType.animatableKeyPaths.contains(key), let sample = layerKind.makeLayer().value(forKeyPath: key) {
            switch sample {
            case .scalar: return .number
            case .bool: return .boolean
            case .color: return .colour
            case .transform: return .transform
            case .point: return .point
            case .size: return .size
            case .rect: return .rectangle
            }
        }
        guard layerKind.setupKeys.contains(key) else { return nil }
        switch key {
        case "path": return .pathData
        case "fillRule": return .choice(["nonZero", "evenOdd"])
        case "lineCap": return .choice(["butt", "round", "square"])
        case "lineJoin": return .choice(["miter", "round", "bevel"])
        case "lineDashPattern", "locations": return .numbers
        case "string": return .text
        case "alignment": return .choice(["natural", "left", "center", "right"])
        case "wrapped", "truncatesEnd": return .boolean
        case "truncation": return .choice(TextTruncation.allCases.map(\.rawValue))
        case "lines": return .wholeNumber(0...SceneFileCompiler.Limits.textLines)
        case "lineHeight": return .number
        case "font": return .fontName
        case "colors": return .colours
        case "type": return .choice(["axial", "radial"])
        case "instanceCount": return .wholeNumber(0...SceneFileCompiler.Limits.replicatorInstances)
        case "contentsGravity": return .choice(ContentsGravity.allCases.map(\.rawValue))
        case "contents": return .image
        case "source": return .video
        case "loop", "playing", "overlayPlane", "muted": return .boolean
        case "rate", "volume": return .number
        case "contentSize": return .size
        case "paging", "bounces", "indicators": return .boolean
        case "decelerationRate": return .choice(["normal", "fast"])
        case "title": return .text
        case "style" where kind == "button": return .choice(["primary", "secondary", "plain"])
        case "style": return .choice(["bar", "ring"])
        case "enabled", "on", "indeterminate": return .boolean
        case "range": return .range
        case "step": return .number
        case "binding": return .bindingName
        case "items": return .listBinding
        case "row": return .templateName
        case "rowHeight": return .number
        case "placeholder": return .text
        case "maxLength": return .wholeNumber(1...4096)
        default: return nil
        }
    }

    /// The limits of the cost model, by the name `docs/scene-files.md` gives each.
    public static let limits: [(name: String, value: Int)] = {
        typealias L = SceneFileCompiler.Limits
        return [("layers", L.layers), ("drawn layers", L.drawnLayers), ("layer depth", L.layerDepth),
                ("template depth", L.templateDepth), ("templates", L.templates), ("parameters", L.parameters),
                ("template nodes", L.expandedNodes), ("template bytes", L.expandedBytes), ("text bytes", L.textBytes), ("shadowed layers", L.shadowedLayers), ("path points", L.pathPoints),
                ("states", L.states), ("gestures", L.gestures), ("animations", L.animations), ("animators", L.animators),
                ("keyframes", L.keyframes), ("bindings", L.bindings), ("images", L.images), ("videos", L.videos), ("image pixels", L.imagePixels),
                ("all image pixels", L.totalImagePixels), ("replicator instances", L.replicatorInstances),
                ("names", L.nameBytes), ("control side", L.controlSide)]
    }()
}
