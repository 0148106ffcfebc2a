extension BitwiseOperator {
    /// The operator a token spells, if any.
    init?(_ kind: TokenKind) {
        switch kind {
        case .bar: self = .or
        case .caret: self = .exclusiveOr
        case .ampersand: self = .and
        case .shiftLeft: self = .leftShift
        case .shiftRight: self = .rightShift
        default: return nil
        }
    }
}
