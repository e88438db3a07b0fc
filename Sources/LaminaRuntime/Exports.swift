// The runtime's API is made of the lower modules' types (layers, geometry, colours, gestures,
// displays): they are re-exported, so `import LaminaRuntime` (and `import Lamina`, which
// re-exports this module) is enough to use it.
@_exported import LaminaAnimation
@_exported import LaminaDisplay
@_exported import LaminaGeometry
@_exported import LaminaInput
@_exported import LaminaLayers
@_exported import LaminaRaster
@_exported import LaminaSystem
