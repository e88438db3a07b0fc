import Lamina

/// Every control in one self-service panel, laid out without a coordinate worked out by hand:
/// a grid of choices (buttons), a sugar slider, a "to go" toggle, a name box and an order
/// button on the left; a preparing bar, a ring and a list of recent orders that reuses its
/// rows on the right. Ordering asks in a dialog; confirmed, the order tops the list and the
/// bar fills.
///
/// Written on the public app API only (`import Lamina`), as an app would.
public final class Controls: Scene, ListDataSource {
    public static let name = "controls"
    public static let summary = "every control in a self-service panel: buttons, slider, toggle, text box, progress, dialog and a list"

    /// The drinks the grid offers.
    public static let drinks = ["Tea", "Coffee", "Cocoa", "Juice", "Water", "Soup"]

    /// The choice buttons, in the order of `drinks`.
    public private(set) var choices: [Button] = []
    /// Spoons of sugar, 0…3 in whole steps.
    public let sugar: Slider
    /// Whether the order is to take away.
    public let toGo: Toggle
    /// The name the order is called by.
    public let name: TextBox
    /// Opens the confirmation dialog.
    public let order: Button
    /// How far the last order is prepared.
    public let preparing: ProgressView
    /// Turns while an order is being prepared.
    public let ring: ProgressView
    /// The recent orders, newest first.
    public let recent: ListView
    /// The orders the list shows, newest first.
    public private(set) var orders: [String] = (1...40).reversed().map { "Order \($0): Tea, 1 sugar" }
    /// The drink chosen last.
    public private(set) var chosen = "Tea"
    /// The dialog on screen, if any.
    public private(set) var dialog: Dialog?

    private let context: SceneContext
    private let panel: StackLayout
    private let side: StackLayout
    private let summaryLabel = TextLayer()

    public init(context: SceneContext, settings: NoSettings) {
        self.context = context
        let theme = Theme.dark
        let screen = context.screenSize
        let margin = 60.0
        let columnWidth = (screen.width - margin * 3) / 2

        panel = StackLayout(axis: .vertical, size: Size(width: columnWidth, height: screen.height - margin * 2),
                            spacing: 28, alignment: .fill, padding: EdgeInsets(all: 36))
        panel.layer.position = Point(x: margin + columnWidth / 2, y: screen.height / 2)
        panel.layer.backgroundColor = theme.card
        panel.layer.cornerRadius = 24
        context.rootLayer.addSublayer(panel.layer)
        panel.add(Self.label("What would you like?", size: theme.titleFontSize, theme: theme))

        let grid = GridLayout(container: Layer(), columns: 3, spacing: Size(width: 16, height: 16), rowHeight: 88, fillsCells: false)
        let cell = Size(width: (columnWidth - 72 - 32) / 3, height: 88)
        for drink in Self.drinks {
            let button = Button(context: context, title: drink, size: cell, kind: .secondary)
            grid.add(button.layer)
            choices.append(button)
        }
        panel.add(grid, size: .fixed(88 * 2 + 16))

        sugar = Slider(context: context, width: columnWidth - 72 - 220, range: 0...3, value: 1, step: 1)
        panel.add(Self.row(Self.label("Sugar", theme: theme), sugar.layer), size: .fixed(64))
        toGo = Toggle(context: context)
        panel.add(Self.row(Self.label("To go", theme: theme), toGo.layer), size: .fixed(64))
        name = TextBox(context: context, width: columnWidth - 72, placeholder: "Your name")
        panel.add(name.layer)
        summaryLabel.fontSize = theme.fontSize
        summaryLabel.foregroundColor = theme.secondaryText
        summaryLabel.bounds = Rect(x: 0, y: 0, width: columnWidth - 72, height: 40)
        panel.add(summaryLabel, size: .flexible(1))
        order = Button(context: context, title: "Order", size: Size(width: columnWidth - 72, height: 80))
        panel.add(order.layer, size: .fixed(80))

        side = StackLayout(axis: .vertical, size: Size(width: columnWidth, height: screen.height - margin * 2),
                           spacing: 24, alignment: .fill, padding: EdgeInsets(all: 36))
        side.layer.position = Point(x: margin * 2 + columnWidth * 1.5, y: screen.height / 2)
        side.layer.backgroundColor = theme.card
        side.layer.cornerRadius = 24
        context.rootLayer.addSublayer(side.layer)
        ring = ProgressView(style: .ring, size: Size(width: 56, height: 56))
        side.add(Self.row(Self.label("Preparing", size: theme.titleFontSize, theme: theme), ring.layer), size: .fixed(64))
        preparing = ProgressView(style: .bar, size: Size(width: columnWidth - 72, height: 12), progress: 1)
        side.add(preparing.layer, size: .fixed(12))
        recent = ListView(context: context, size: Size(width: columnWidth - 72, height: 600), rowHeight: 72)
        recent.layer.cornerRadius = theme.cornerRadius
        recent.layer.backgroundColor = theme.background
        side.add(recent.layer, size: .flexible(1))
        recent.dataSource = self
        recent.reloadData()

        for (button, drink) in zip(choices, Self.drinks) {
            button.onTap = { [unowned self] _ in
                self.chosen = drink
                self.showSummary()
            }
        }
        sugar.onChange = { [unowned self] _ in self.showSummary() }
        toGo.onChange = { [unowned self] _ in self.showSummary() }
        order.onTap = { [unowned self] _ in self.confirm() }
        showSummary()
    }

    /// What the order would be, in words.
    public var summary: String {
        let spoons = Int(sugar.value.rounded())
        return "\(chosen), \(spoons) sugar\(toGo.isOn ? ", to go" : "")"
    }

    private func showSummary() {
        Transaction.begin()
        Transaction.disableActions = true
        summaryLabel.string = summary
        Transaction.commit()
    }

    /// Asks before ordering: confirmed, the order goes on top of the list and is prepared.
    private func confirm() {
        let dialog = Dialog(context: context, title: "Order \(summary.lowercased())?",
                            message: name.field.text.isEmpty ? "We'll call your number." : "We'll call \(name.field.text).",
                            actions: [Dialog.Action("Change", kind: .secondary),
                                      Dialog.Action("Order") { [unowned self] in self.place() }])
        dialog.onDismiss = { [unowned self] _ in self.dialog = nil }
        self.dialog = dialog
        dialog.show()
    }

    private func place() {
        orders.insert("Order \(orders.count + 1): \(summary)", at: 0)
        recent.reloadData()
        recent.scrollView.setContentOffset(.zero, animated: true)      // the new order, on top
        preparing.setProgress(0, animated: false)
        preparing.setProgress(1, animated: true)
        ring.isIndeterminate = false
        ring.setProgress(0, animated: false)
        ring.setProgress(1, animated: true)
    }

    // MARK: The list's rows

    public func numberOfRows(in list: ListView) -> Int { orders.count }

    public func makeRow(for list: ListView, size: Size) -> Layer {
        let row = Layer()
        let label = TextLayer()
        label.fontSize = Theme.dark.fontSize
        label.foregroundColor = Theme.dark.text
        label.frame = Rect(x: 24, y: 18, width: size.width - 48, height: 40)
        row.addSublayer(label)
        let rule = Layer()
        rule.backgroundColor = Theme.dark.surface
        rule.frame = Rect(x: 24, y: size.height - 1, width: size.width - 48, height: 1)
        row.addSublayer(rule)
        return row
    }

    public func list(_ list: ListView, configure row: Layer, at index: Int) {
        (row.sublayers.first as? TextLayer)?.string = orders[index]
    }

    // MARK: Building

    private static func label(_ text: String, size: Double? = nil, theme: Theme) -> TextLayer {
        let label = TextLayer()
        label.string = text
        label.fontSize = size ?? theme.fontSize
        label.foregroundColor = theme.text
        label.bounds = Rect(x: 0, y: 0, width: 320, height: (size ?? theme.fontSize) * 1.4)
        return label
    }

    /// A label and a control side by side, the control taking what is left.
    private static func row(_ label: Layer, _ control: Layer) -> Layer {
        let row = StackLayout(axis: .horizontal, size: Size(width: 100, height: 64), spacing: 16, alignment: .center)
        row.add(label, size: .fixed(200))
        row.add(control)
        return row.layer
    }
}
