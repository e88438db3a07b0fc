import LaminaWidgets

extension FileScene {
    /// The control a control layer is, made at the size its `bounds` gives (or its own), its
    /// settings applied and its number binding followed both ways; returns its layer.
    func makeControl(_ spec: LayerSpec) -> Layer {
        let size = spec.writtenBounds?.size
        var binding: String?, enabled = true
        var title = "", buttonKind = Button.Kind.primary, progressStyle = ProgressView.Style.bar
        var on = false, range = 0.0...1.0, step: Double?, indeterminate = false
        var placeholder = "", maximumLength = 256
        var theme = Theme.dark
        for entry in spec.setup {
            switch entry {
            case .controlBinding(let name): binding = name
            case .enabled(let e): enabled = e
            case .title(let t): title = t
            case .buttonStyle(let k): buttonKind = k
            case .progressStyle(let s): progressStyle = s
            case .on(let o): on = o
            case .range(let r): range = r
            case .step(let s): step = s
            case .indeterminate(let i): indeterminate = i
            case .placeholder(let p): placeholder = p
            case .maximumLength(let n): maximumLength = n
            case .font(let font): theme.font = font
            default: break
            }
        }
        let name = spec.name ?? ""
        let bound: Double? = binding.flatMap { if case .number(let v)? = bindingValues[$0] { v } else { nil } }
        // The controls keep these closures, and the scene keeps the controls: they hold the
        // scene weakly, so nothing keeps the scene (and the runtime its context names) alive.
        let publishValue: (String, ControlValue?) -> Void = { [weak self] event, value in
            var fields: [String: ControlValue] = ["layer": .string(name), "action": .string(event)]
            if let value { fields["value"] = value }
            self?.context.publish("control", fields)
        }
        let publish: (String, Double?) -> Void = { event, value in publishValue(event, value.map(ControlValue.number)) }
        let set: (Double) -> Void = { [weak self] value in
            guard let self, let binding else { return }
            try? self.setBinding(binding, to: .number(value))
        }
        switch spec.kind {
        case .button:
            let button = Button(context: context, title: title, size: size, kind: buttonKind, theme: theme)
            button.isEnabled = enabled
            button.onTap = { _ in publish("tap", nil) }
            if let n = spec.name { buttons[n] = button }
            controls.append(button)
            return button.layer
        case .toggle:
            let toggle = Toggle(context: context, isOn: bound.map { $0 != 0 } ?? on)
            toggle.isEnabled = enabled
            toggle.onChange = { t in
                set(t.isOn ? 1 : 0)
                publish("change", t.isOn ? 1 : 0)
            }
            if let binding { controlBindings[binding, default: []].append { [weak toggle] v in toggle?.setOn(v != 0, animated: true) } }
            controls.append(toggle)
            return toggle.layer
        case .slider:
            let slider = Slider(context: context, width: size?.width ?? 300, range: range, value: bound, step: step)
            slider.isEnabled = enabled
            slider.onChange = { s in
                set(s.value)
                publish("change", s.value)
            }
            if let binding { controlBindings[binding, default: []].append { [weak slider] v in if slider?.isTracking == false { slider?.value = v } } }
            controls.append(slider)
            return slider.layer
        case .textbox:
            let text: String = binding.flatMap { if case .string(let s)? = bindingValues[$0] { s } else { nil } } ?? ""
            let box = TextBox(context: context, width: size?.width ?? 400, text: text, placeholder: placeholder,
                              maximumLength: maximumLength, theme: theme)
            box.field.onChange = { [weak self] field in
                // Typing sets the binding, so what shows it follows; text past the scene's
                // text budget is kept in the box alone.
                guard let self, let binding else { return }
                try? self.setBinding(binding, to: .string(field.text))
            }
            box.field.onCommit = { field in publishValue("commit", .string(field.text)) }
            if let binding {
                textControlBindings[binding, default: []].append { [weak box] s in
                    if let box, box.field.text != s { box.field.text = s }
                }
            }
            controls.append(box)
            return box.layer
        default:
            let progress = ProgressView(style: progressStyle, size: size ?? Size(width: 300, height: 12), progress: bound ?? 0)
            progress.isIndeterminate = indeterminate
            if let binding { controlBindings[binding, default: []].append { [weak progress] v in progress?.progress = v } }
            controls.append(progress)
            return progress.layer
        }
    }
}
