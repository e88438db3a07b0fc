// The control socket's API names the runtime's types (`Runtime`, `ControlValue`): they are
// re-exported, so `import LaminaControl` is enough to use it (`import Lamina` re-exports
// this module).
@_exported import LaminaRuntime
