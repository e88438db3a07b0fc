import LaminaLayers

/// Runs `body` in a transaction of its own with implicit actions off: how the widgets place
/// and restyle their own layers (a control's parts move at once, never animate by default).
func withoutActions(_ body: () -> Void) {
    Transaction.begin()
    Transaction.disableActions = true
    body()
    Transaction.commit()
}
