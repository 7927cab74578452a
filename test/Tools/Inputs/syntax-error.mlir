func.func @unterminated( {
