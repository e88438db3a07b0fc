// `import Lamina` is the one import an app needs: the modules below stay separate targets
// (each builds and tests on its own, and the DAG in docs/architecture.md stays strict), and
// are re-exported on purpose so an app sees layers, animations, geometry, colours, paths,
// images, text, gestures and display links (re-exported by LaminaRuntime) and the scene
// files' syntax tree through this module.
@_exported import LaminaControl
@_exported import LaminaRuntime
@_exported import LaminaSceneFiles
@_exported import LaminaSceneSyntax
@_exported import LaminaVideo
@_exported import LaminaWidgets
