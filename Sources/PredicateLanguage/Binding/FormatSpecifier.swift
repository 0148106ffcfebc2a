/// The kind of value a format specifier takes.
enum FormatSpecifier: Equatable {
    /// `%@`: any value.
    case object
    /// `%K`: a key path given as a string.
    case keyPath
    /// `%d`, `%i`, `%ld`, `%lld`, `%u`, `%hd`, `%hu`, `%lu`, `%llu`: an integer.
    case integer
    /// `%f`, `%lf`, `%g`, `%e`, `%F`, `%G`, `%E`: a floating-point number.
    case floatingPoint
}
