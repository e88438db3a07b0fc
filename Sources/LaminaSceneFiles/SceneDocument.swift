import LaminaSceneSyntax
import LaminaVideo
import LaminaWidgets

/// A scene file compiled and checked: everything `FileScene` needs to build and run it, with
/// nothing left to fail but what depends on the running tree. Made by `SceneFileCompiler`;
/// the format is `docs/scene-files.md`.
public struct SceneDocument {
    /// The file it came from.
    public var file: String
    /// The screen's background, when the file sets one.
    public var background: Color?
    /// Named values text and properties refer to (`$name`, `{name}`), in the order written.
    public var bindings: [Binding]
    /// The top-level layers, back to front.
    var layers: [LayerSpec]
    /// Named property values per layer.
    var states: [String: StateSpec]
    /// The state at start, if any.
    var initialState: String?
    /// How going from one state to another animates; the first that matches wins.
    var transitions: [TransitionSpec]
    /// Each named template use's own states, by the use's name.
    var useStates: [String: StateMachine]
    /// Animations gestures run, by name.
    var animations: [String: NamedAnimation]
    /// Property animators gestures drive, by name.
    var animators: [String: AnimatorSpec]
    /// Dialogs gestures show, by name.
    var dialogs: [String: DialogSpec] = [:]
    /// What touches do.
    var gestures: [GestureSpec]
    /// The languages of the file's `translations:` catalogs (`de`, `pt_BR`).
    var languages: [String] = []
    /// The face text without a `font` is drawn with when the file names `fallbackFonts`
    /// (the default face with those fallbacks); nil otherwise. Dialogs use it.
    var defaultFont: Font?

    /// Number bindings every scene file has, set by Lamina: the screen's size (which a
    /// rotation turned a quarter changes) and the on-screen keyboard's height (0 while it is
    /// away), so a file's layout can follow them (`bounds: [0, 0, "= $screenWidth - 120", 80]`).
    public static let builtInBindings: [(name: String, meaning: String)] = [
        ("screenWidth", "the screen's width"), ("screenHeight", "the screen's height"),
        ("keyboardHeight", "the on-screen keyboard's height, 0 while it is away"),
    ]

    /// The names of the states, sorted.
    public var stateNames: [String] { states.keys.sorted() }
    /// How many layers the scene builds (template uses and their insides counted).
    public var layerCount: Int { layers.reduce(0) { $0 + $1.count } }
    /// What the scene costs to draw (`SceneFileCompiler.Limits`), worked out once when it
    /// was compiled: `set-binding` checks the text budget against it without walking the
    /// layers again.
    let cost: SceneCost

    /// Refuses binding values that would make the scene show more text than
    /// `SceneFileCompiler.Limits.textBytes` (a long string shown in many text layers).
    func checkTextBudget(_ value: (String) -> BindingValue?, field: String) throws(ConfigError) {
        let bytes = cost.textBytes(value)
        guard bytes <= SceneFileCompiler.Limits.textBytes else {
            throw ConfigError(file: file, field: field,
                              reason: "the scene would show \(bytes == Int.max ? "too many" : "\(bytes)") bytes of text; a scene shows at most \(SceneFileCompiler.Limits.textBytes)")
        }
    }

    /// A named value a scene file declares.
    public struct Binding: Hashable, Sendable {
        /// The name, as `$name` and `{name}` refer to it.
        public var name: String
        /// The value at start (from the file, or the config's `[bindings]`).
        public var value: BindingValue
    }
}

/// A property value: written in the file, or a binding's.
enum ValueSpec {
    case literal(AnimatableValue)
    case binding(String)
    /// A point, size or rectangle written as a list with bindings among its numbers
    /// (`position: [1440, $arrowY]`): `sample` says which, each part a number or a binding.
    case components(sample: AnimatableValue, parts: [ComponentSpec])
    /// `= expression`: a number, colour or true/false worked out from the bindings.
    case expression(SceneExpression)

    /// The bindings the value follows.
    var bindingNames: [String] {
        switch self {
        case .literal: return []
        case .binding(let name): return [name]
        case .components(_, let parts): return parts.flatMap(\.bindingNames)
        case .expression(let e): return e.bindingNames
        }
    }
}

/// One number of a point, size or rectangle: written, a number binding's, or an expression's.
enum ComponentSpec {
    case number(Double)
    case binding(String)
    case expression(SceneExpression)

    var bindingNames: [String] {
        switch self {
        case .number: return []
        case .binding(let name): return [name]
        case .expression(let e): return e.bindingNames
        }
    }
}

/// One layer to build.
struct LayerSpec {
    enum Kind: String, CaseIterable {
        case layer, shape, text, gradient, replicator, transform, scroll, list, button, toggle, slider, progress, textbox, video

        /// The kinds that are controls (`LaminaWidgets`): their `bounds` gives the control's size.
        var isControl: Bool { [.button, .toggle, .slider, .progress, .textbox].contains(self) }
    }

    var kind: Kind
    var name: String?
    /// Where the layer is in the file, for errors found while running.
    var elementPath: String
    /// Animatable properties, in the order written.
    var properties: [(keyPath: String, value: ValueSpec)]
    /// Everything else a kind has (path data, text, images...), already checked.
    var setup: [LayerSetup]
    /// Text whose `{name}` parts follow bindings.
    var text: TextTemplate?
    var sublayers: [LayerSpec]
    /// Animations started when the scene is built (loops).
    var animations: [(key: String, animation: AnimationSpec)]
    /// How it places its sublayers (`layout:`), when it does.
    var layout: LayoutSpec? = nil
    /// Its length in its superlayer's stack (`layoutSize:`), when given.
    var layoutSize: ItemSize? = nil
    /// A `list` layer's row, built for each row on screen.
    var listRow: ListRowSpec? = nil

    var count: Int { sublayers.reduce(1) { $0 + $1.count } }

    /// Its `bounds` when written as numbers (nil: not written, or bound): what a control, a
    /// scroll view or a list is sized by.
    var writtenBounds: Rect? {
        for case let (keyPath, .literal(.rect(r))) in properties where keyPath == "bounds" { return r }
        return nil
    }

    /// How many copies of its sublayers a replicator draws (1 for other kinds).
    var instanceCount: Int {
        for case .instanceCount(let n) in setup { return n }
        return 1
    }
}

/// A property that is not animatable, set once when the layer is built.
enum LayerSetup {
    case path(Path)
    case fillRule(FillRule)
    case lineCap(LineCap)
    case lineJoin(LineJoin)
    case lineDashPattern([Double])
    case alignment(TextLayer.Alignment)
    case wrapped(Bool)
    case truncation(TextTruncation)
    case numberOfLines(Int)
    case lineHeightMultiple(Double)
    /// A text layer's face.
    case font(Font)
    case gradientColors([Color])
    case gradientLocations([Double])
    case gradientType(GradientLayer.Kind)
    case instanceCount(Int)
    case contents(PixelBuffer)
    case contentsGravity(ContentsGravity)
    /// A scroll layer's content size (nil: its sublayers' extent).
    case contentSize(Size)
    case paging(Bool)
    case bounces(Bool)
    case decelerationRate(Double)
    case showsIndicators(Bool)
    /// A button's label.
    case title(String)
    case buttonStyle(Button.Kind)
    case progressStyle(ProgressView.Style)
    case enabled(Bool)
    /// A toggle's starting side.
    case on(Bool)
    /// A slider's range and step.
    case range(ClosedRange<Double>)
    case step(Double)
    case indeterminate(Bool)
    /// The number binding a toggle, slider or progress shows and sets.
    case controlBinding(String)
    /// A list layer's items: the list binding's name.
    case listItems(String)
    /// A list layer's row template, by name (compiled into `LayerSpec.listRow`).
    case listRowTemplate(String)
    case rowHeight(Double)
    /// A video layer's clip, whether it loops, whether it plays from the start, its rate,
    /// whether its frames may go on an overlay plane, whether its sound is off and how loud.
    case videoSource(VideoSource)
    case loops(Bool)
    case autoplay(Bool)
    case playbackRate(Double)
    case overlayPlane(Bool)
    case muted(Bool)
    case volume(Double)
    /// A text box's placeholder.
    case placeholder(String)
    /// A text box's longest text, in characters.
    case maximumLength(Int)
}

/// A list layer's row: its template compiled once, with each parameter read as a binding
/// that an item's field of that name gives (`$title`, `{title}`). A class: a layer spec holds
/// it and it holds a layer spec.
final class ListRowSpec {
    /// The template's name.
    let template: String
    /// Each field's kind and its value when an item leaves it out: the parameters' defaults.
    let fields: [String: BindingValue]
    /// The row's layer tree.
    let layer: LayerSpec

    init(template: String, fields: [String: BindingValue], layer: LayerSpec) {
        self.template = template
        self.fields = fields
        self.layer = layer
    }

    /// `items` checked against the fields and made their kinds: a number field takes a
    /// number, a colour field a "#RRGGBB" string, a text field a string; a field the row has
    /// no parameter for is refused. Throws the reason, naming the item and the field.
    func convert(_ items: [[String: BindingValue]]) throws(ListItemRefusal) -> [[String: BindingValue]] {
        var result: [[String: BindingValue]] = []
        result.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            var record: [String: BindingValue] = [:]
            for (key, value) in item {
                guard let kind = fields[key] else {
                    throw ListItemRefusal(reason: "item \(i) has a field '\(Escaped(key))' that row template '\(template)' has no parameter for (parameters: \(fields.keys.sorted().joined(separator: ", ")))")
                }
                switch (kind, value) {
                case (.number, .number), (.string, .string), (.color, .color): record[key] = value
                case (.color, .string(let text)):
                    guard let colour = try? Color(hex: text) else {
                        throw ListItemRefusal(reason: "item \(i).\(key): '\(Escaped(text))' is not a colour")
                    }
                    record[key] = .color(colour)
                default:
                    throw ListItemRefusal(reason: "item \(i).\(key) is a \(value.kindName); the row's parameter is a \(kind.kindName)")
                }
            }
            result.append(record)
        }
        return result
    }
}

/// Why a list binding's items do not fit its rows.
struct ListItemRefusal: Error {
    var reason: String
}

/// A layer's `layout:`: a stack or a grid of its sublayers (`StackLayout`, `GridLayout`).
enum LayoutSpec {
    case stack(axis: StackLayout.Axis, spacing: Double, alignment: StackLayout.Alignment,
               distribution: StackLayout.Distribution, padding: EdgeInsets)
    case grid(columns: Int, spacing: Size, rowHeight: Double?, fillsCells: Bool, padding: EdgeInsets)
}

/// Text with `{binding}` and `{= expression}` parts.
struct TextTemplate {
    enum Part {
        case literal(String)
        case binding(String)
        case expression(SceneExpression)
    }

    var parts: [Part]
    /// The text as written (a catalog's `msgid`); nil for a lone binding.
    var source: String?
    /// The parts of each language's translation, by catalog name (`de`, `pt_BR`).
    var translations: [String: [Part]] = [:]

    /// The text in `language` (its catalog's translation, found as `Translations` finds a
    /// catalog: `de_AT`, then `de`; as written when it has none).
    func text(in language: String?, _ value: (String) -> BindingValue?) -> String {
        guard let language, !translations.isEmpty else { return text(value) }
        for tag in Translations.candidates(language) {
            if let parts = translations[tag] { return TextTemplate(parts: parts).text(value) }
        }
        return text(value)
    }

    func text(_ value: (String) -> BindingValue?) -> String {
        parts.map { part in
            switch part {
            case .literal(let s): return s
            case .binding(let name): return value(name)?.description ?? ""
            case .expression(let e): return e.evaluate(value).text
            }
        }.joined()
    }

    var bindingNames: [String] {
        var names: [String] = []
        for part in parts {
            switch part {
            case .literal: break
            case .binding(let name): names.append(name)
            case .expression(let e): names += e.bindingNames
            }
        }
        return names
    }
}

/// A template use's own states: its layers' names are under the use's (`row1.card`).
struct StateMachine {
    var states: [String: StateSpec] = [:]
    var initialState: String?
    var transitions: [TransitionSpec] = []
}

/// How a template's states and gestures name its layers: under the use (`card` is
/// `row1.card`), `self` the use's own layer.
struct LayerScope {
    var owner: String

    func name(_ written: String) -> String { written == "self" ? owner : owner + "." + written }
}

/// Values per layer that a state sets.
struct StateSpec {
    var name: String
    var values: [(layer: String, keyPath: String, value: ValueSpec)]
}

/// How a change of state animates.
enum TransitionStyle {
    /// Implicit actions with this duration and curve (Core Animation's transaction).
    case implicit(duration: Double, curve: TimingFunction)
    /// An explicit animation per property from what is shown to the new value.
    case basic(duration: Double, curve: TimingFunction)
    /// A spring per property.
    case spring(Spring)
    /// No animation.
    case none
}

struct TransitionSpec {
    /// nil is any state.
    var from: String?
    var to: String?
    var style: TransitionStyle
}

/// An explicit animation as written: a basic, spring or keyframe animation of one key path,
/// or a group.
enum AnimationSpec {
    case single(BasicAnimation)
    case group(AnimationGroup)

    /// The same animation started at media time `now`: a begin time in a file counts from
    /// when the animation starts (0 stays 0, Core Animation's "now" at commit).
    func starting(at now: Double) -> AnimationSpec {
        switch self {
        case .single(var a):
            a.timing.beginTime = a.timing.beginTime == 0 ? 0 : now + a.timing.beginTime
            return .single(a)
        case .group(var g):
            g.timing.beginTime = g.timing.beginTime == 0 ? 0 : now + g.timing.beginTime
            return .group(g)
        }
    }
}

/// An animation gestures run by name, on one layer.
struct NamedAnimation {
    var layer: String
    var animation: AnimationSpec
}

/// A property animator: animates to a state's values over `duration`.
struct AnimatorSpec {
    var name: String
    var duration: Double
    var curve: TimingFunction
    var state: String
}

/// What a recognized gesture does.
enum GestureAction {
    case goTo(String)
    case run(String)
    /// Toggles between two states.
    case toggle(String, String)
    /// Shows a dialog (`dialogs:`).
    case show(String)
}

/// A dialog a gesture shows (`dialogs:`): its texts are read from the bindings when it is
/// shown; each action dismisses it, then does what it says.
struct DialogSpec {
    struct Action {
        var title: String
        var kind: Button.Kind
        /// What choosing it does besides dismissing (nil: only that).
        var action: GestureAction?
    }

    var name: String
    var title: TextTemplate
    var message: TextTemplate?
    var actions: [Action]
    var dismissesOnBackgroundTap: Bool
}

/// A recognizer on a layer and what it does.
struct GestureSpec {
    enum Recognizer {
        case tap(count: Int)
        case longPress(duration: Double)
        case swipe(SwipeGestureRecognizer.Direction)
        /// A pan: the layer may follow the finger; an animator runs forward while held and
        /// back on release (`hold`), or its fraction follows the finger (`scrub`).
        case pan(drag: Bool, animator: String?, mode: PanMode)
    }

    enum PanMode {
        case hold
        case scrub(axis: Axis, distance: Double)
    }

    enum Axis { case x, y }

    var layer: String
    var recognizer: Recognizer
    var action: GestureAction?
    var elementPath: String
    /// The template use whose states `goTo` and `toggle` name (nil: the scene's).
    var owner: String? = nil

    /// The recognizer's name as the file writes it (`tap`, `longPress`, `swipe`, `pan`).
    var kindName: String {
        switch recognizer {
        case .tap: return "tap"
        case .longPress: return "longPress"
        case .swipe: return "swipe"
        case .pan: return "pan"
        }
    }
}
