// The widgets are built on the runtime's app API (`SceneContext`, layers, gestures): its
// types are re-exported, so `import LaminaWidgets` is enough to use them (`import Lamina`
// re-exports this module).
@_exported import LaminaRuntime
