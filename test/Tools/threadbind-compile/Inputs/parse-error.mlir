func.func @broken(%a: memref<4xf32> {
