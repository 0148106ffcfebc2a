/// A predicate compiled once into closures, ready to evaluate against many objects.
///
/// Compiling splits key paths, folds `[c]`/`[d]` constants, compiles `LIKE`
/// patterns and `MATCHES` regular expressions, and turns constant `IN` lists into
/// sets, so evaluating never re-reads the syntax tree.
///
/// ```swift
/// let predicate = FormatPredicate.comparison(
///     ComparisonPredicate(.keyPath("name"), .beginsWith, .constant("s"), options: .caseInsensitive))
/// let compiled = try CompiledPredicate(predicate)
/// try compiled.evaluate(["name": "Strasbourg"] as [String: Value])   // true
/// ```
public struct CompiledPredicate: Sendable {
    /// The predicate as given.
    public let predicate: FormatPredicate
    /// The options it was compiled with.
    public let options: EvaluationOptions
    private let test: PredicateClosure
    /// The predicate compiled against a field layout, for objects of that layout's type.
    private let layoutTest: PredicateClosure?
    /// The type ``layoutTest`` runs on.
    private let layoutType: ObjectIdentifier?

    /// Compiles a predicate; throws `FormatPredicateError.evaluation` for what can be found
    /// wrong before evaluating (an invalid constant regular expression, an unknown
    /// function, collection operator or cast type).
    ///
    /// ```swift
    /// let compiled = try CompiledPredicate(.comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(1))))
    /// ```
    public init(_ predicate: FormatPredicate, options: EvaluationOptions = .init()) throws(FormatPredicateError) {
        self.predicate = predicate
        self.options = options
        self.test = try PredicateCompiler.compile(predicate, options: options, layout: nil)
        self.layoutTest = nil
        self.layoutType = nil
    }

    /// Compiles a predicate, and compiles it a second time against the field layout of
    /// `layout`: each key it reads from `SELF` is resolved once, to the type's
    /// ``FieldReader`` for it. Evaluating an object of that type reads its fields through
    /// the readers (the same answers, without a lookup by name per object and key);
    /// any other object is evaluated as usual.
    ///
    /// ```swift
    /// let compiled = try CompiledPredicate(FormatPredicate(format: "population > 1000000"), layout: City.self)
    /// ```
    public init<Layout: FieldLayoutReadable>(
        _ predicate: FormatPredicate, options: EvaluationOptions = .init(), layout: Layout.Type
    ) throws(FormatPredicateError) {
        self.predicate = predicate
        self.options = options
        self.test = try PredicateCompiler.compile(predicate, options: options, layout: nil)
        let fieldLayout = CompiledFieldLayout(layout)
        self.layoutTest = try PredicateCompiler.compile(predicate, options: options, layout: fieldLayout)
        self.layoutType = fieldLayout.type
    }

    /// Evaluates the predicate with `object` as `SELF`.
    ///
    /// ```swift
    /// try compiled.evaluate(["name": "Paris"] as [String: Value], variables: ["limit": 10])
    /// ```
    public func evaluate(_ object: some KeyValueReadable, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Bool {
        try EvaluationRoot.withRoot(object) { (root) throws(FormatPredicateError) -> Bool in try evaluate(root: root, variables: variables) }
    }

    /// Evaluates the predicate with a dictionary of fields as `SELF`: the same answers as the
    /// generic `evaluate(_:variables:)`, with the fields read without going through the protocol.
    ///
    /// ```swift
    /// try compiled.evaluate(["name": "Paris", "population": 2_148_000])
    /// ```
    public func evaluate(_ object: consuming [String: Value], variables: [String: Value] = [:]) throws(FormatPredicateError) -> Bool {
        try evaluate(root: EvaluationRoot(fields: object), variables: variables)
    }

    /// Evaluates the predicate with any value as `SELF` (`SELF BEGINSWITH "a"` on a string).
    ///
    /// ```swift
    /// try compiled.evaluate(value: .string("apple"))
    /// ```
    public func evaluate(value: Value, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Bool {
        try EvaluationRoot.withRoot(value) { (root) throws(FormatPredicateError) -> Bool in try evaluate(root: root, variables: variables) }
    }

    /// Evaluates the predicate on a root: the one non-generic entry every public one ends in.
    /// An object of the layout's type runs the closures compiled against its layout.
    func evaluate(root: consuming EvaluationRoot, variables: [String: Value]) throws(FormatPredicateError) -> Bool {
        if let layoutTest, let objectType = root.objectType, ObjectIdentifier(objectType) == layoutType {
            return try EvaluationContext.evaluate(root: root, variables: variables, maximumSteps: options.maximumEvaluationSteps, budget: options.budget, layoutTest)
        }
        return try EvaluationContext.evaluate(root: root, variables: variables, maximumSteps: options.maximumEvaluationSteps, budget: options.budget, test)
    }
}

extension FormatPredicate {
    /// Compiles and evaluates the predicate once with `object` as `SELF`. To evaluate
    /// against many objects, compile a ``CompiledPredicate`` once instead.
    ///
    /// ```swift
    /// try predicate.evaluate(with: ["population": 2_148_000] as [String: Value])
    /// ```
    public func evaluate(with object: some KeyValueReadable, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Bool {
        try CompiledPredicate(self).evaluate(object, variables: variables)
    }

    /// Compiles and evaluates the predicate once with any value as `SELF`.
    ///
    /// ```swift
    /// try predicate.evaluate(withValue: .string("apple"))
    /// ```
    public func evaluate(withValue value: Value, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Bool {
        try CompiledPredicate(self).evaluate(value: value, variables: variables)
    }
}
