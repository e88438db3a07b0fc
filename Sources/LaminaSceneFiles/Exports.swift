// Scene files are written against the runtime's API and the syntax tree the helper prints:
// both are re-exported, so `import LaminaSceneFiles` (and `import Lamina`) is enough to
// compile, install and drive one.
@_exported import LaminaRuntime
@_exported import LaminaSceneSyntax
