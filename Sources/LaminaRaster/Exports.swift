// A pixel buffer is part of what a canvas draws into: it comes with the rasterizer.
@_exported import LaminaPixels
