// A display is handed the clock its vblanks are timed on: the clock types come with it.
@_exported import LaminaSystem
