/// A compiled operand of `AND`/`OR`, kept in an array at its own abstraction.
///
/// An array of bare closures stores them as generic values, so every call of one goes
/// through reabstraction thunks; wrapped in a struct, a closure is stored as it was compiled.
struct CompiledPredicateOperand {
    let test: PredicateClosure
}

/// A compiled argument of a function or member of an aggregate, kept in an array at its
/// own abstraction (see ``CompiledPredicateOperand``).
struct CompiledExpressionOperand {
    let compute: ExpressionClosure
}
