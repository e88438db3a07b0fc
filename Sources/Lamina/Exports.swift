// `import Lamina` is the one import an app needs: the modules below stay separate targets
// (each builds and tests on its own, and the DAG in docs/architecture.md stays strict), and
// are re-exported here on purpose so an app sees layers, animations, geometry, colours,
// paths, images, text, gestures and display links through this module.
@_exported import LaminaAnimation
@_exported import LaminaRuntime
@_exported import LaminaDisplay
@_exported import LaminaGeometry
@_exported import LaminaInput
@_exported import LaminaLayers
@_exported import LaminaRaster
@_exported import LaminaSystem
@_exported import LaminaSceneSyntax
