// Links the Swift toolchain's own ICU (lib_FoundationICU, the copy Foundation uses, whose C
// functions carry a `swift_` prefix). Its declarations come from the toolchain's
// `_FoundationICU` module; this module only adds the library to the link.
