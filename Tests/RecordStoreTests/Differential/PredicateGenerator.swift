import Foundation
import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite
import TestSupport

/// Generates random well-typed predicates, sorts and limits over the cities schema from a
/// seed: comparisons with every operator and option, `AND`/`OR`/`NOT` to depth 3,
/// `ANY`/`ALL`/`NONE` and `SUBQUERY` over the alternate names, nil tests, constant
/// predicates, distances, full-text searches, arithmetic and comparisons of two fields.
/// Constants come partly from the data (so results are often non-empty) and partly from
/// a list of edge values.
///
/// ```swift
/// var generator = PredicateGenerator(seed: 42, samples: samples)
/// let testCase = generator.makeCase()   // seed 42: name BEGINSWITH[cd] %@ ...
/// ```
struct PredicateGenerator {
    /// A piece of a format string with the arguments of its `%@`s, in order.
    struct Fragment {
        var format: String
        var arguments: [Value]

        init(_ format: String, _ arguments: [Value] = []) {
            self.format = format
            self.arguments = arguments
        }
    }

    private var random: SplitMix64
    private let seed: UInt64
    private let samples: DatasetSamples
    private var fieldsRead: [String] = []

    static let maximumDepth = 3
    static let stringFields = ["name", "name", "countrycode", "timezone", "admin1code", "recordName"]
    static let numberFields = ["population", "population", "latitude", "longitude", "geonameid"]
    static let optionSuffixes = ["", "", "", "[c]", "[d]", "[cd]", "[c]", "[cd]", "[n]", "[cdl]"]
    static let edgeStrings: [String] = [
        "", " ", "a", "Z", "é", "E\u{301}", "É", "ß", "SS", "ss", "İ", "i", "ı", "ǅ", "ﬁ", "fi", "🙂", "日本",
        "%", "_", "a%b", "*", "?", "\\", "'", "\"", "[", "^", "Ø", "ø", "Å", "zzzz", "Paris", "paris", "SAN",
        "\u{0}", "  San  Jose  ", "Ångström", "ecole", "ÉCOLE", "O'Brien", "100%",
    ]
    static let edgeNumbers: [Value] = [
        0, -1, 1, 0.5, -0.0, 15_000, 15_000.0, 15_000.5, 100_000, 1_000_000, .int(Int64.max), .int(Int64.min),
        .double(Double(Int64.max)), .double(-Double(Int64.max)), 1e300, -1e300, .double(.infinity), .double(-.infinity),
        .double(.nan), true, false, "100", "many", 90.0, -90, 180, -180.0,
    ]

    init(seed: UInt64, samples: DatasetSamples) {
        self.seed = seed
        self.random = SplitMix64(seed: seed)
        self.samples = samples
    }

    /// A whole case: a predicate, 0 to 2 sorts and sometimes a limit.
    mutating func makeCase() -> DifferentialCase {
        let fragment = predicate(depth: 0)
        var sorts: [Sort] = []
        let sortCount = random.pick([0, 1, 1, 2])
        for _ in 0..<sortCount { sorts.append(sort()) }
        let limit: Int? = random.chance(35) ? random.pick([0, 1, 3, 10, 50, 500]) : nil
        var unique: [String] = []
        for field in fieldsRead where !unique.contains(field) { unique.append(field) }
        return DifferentialCase(
            seed: seed, format: fragment.format, arguments: fragment.arguments, sorts: sorts, limit: limit, fields: unique)
    }

    // MARK: Predicates

    mutating func predicate(depth: Int) -> Fragment {
        if depth < Self.maximumDepth, random.chance(depth == 0 ? 45 : 30) {
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                let inner = predicate(depth: depth + 1)
                return Fragment("NOT (\(inner.format))", inner.arguments)
            case 1, 2:
                return join(count: Int.random(in: 2...3, using: &random), with: " AND ", depth: depth)
            default:
                return join(count: Int.random(in: 2...3, using: &random), with: " OR ", depth: depth)
            }
        }
        return leaf()
    }

    private mutating func join(count: Int, with separator: String, depth: Int) -> Fragment {
        var parts: [Fragment] = []
        for _ in 0..<count { parts.append(predicate(depth: depth + 1)) }
        return Fragment(parts.map { "(\($0.format))" }.joined(separator: separator), parts.flatMap(\.arguments))
    }

    private mutating func leaf() -> Fragment {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<26: return stringComparison()
        case 26..<44: return numberComparison()
        case 44..<50: return nilComparison()
        case 50..<64: return listComparison()
        case 64..<72: return distanceComparison()
        case 72..<79: return fullTextSearch()
        case 79..<82: return Fragment(random.pick(["TRUEPREDICATE", "FALSEPREDICATE"]))
        case 82..<87: return twoFieldComparison()
        case 87..<92: return arithmeticComparison()
        case 92..<96: return otherExpressionComparison()
        case 96..<99: return derivedFieldComparison()
        default: return metadataTest()
        }
    }

    private mutating func read(_ field: String) -> String {
        fieldsRead.append(field)
        return field
    }

    // MARK: Strings

    private mutating func stringComparison() -> Fragment {
        let field = read(random.chance(3) ? "missingField" : random.pick(Self.stringFields))
        let symbol = random.pick(["==", "!=", "<", "<=", ">", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN"])
        let options = random.pick(Self.optionSuffixes)
        let source = samples.strings(of: field)
        let constant: Value
        switch symbol {
        case "IN":
            constant = stringList(from: source)
        case "BETWEEN":
            var bounds = [stringConstant(from: source), stringConstant(from: source)].sorted()
            if random.chance(15) { bounds.reverse() }
            constant = .list(bounds.map(Value.string))
        case "LIKE":
            constant = .string(likePattern(from: source))
        case "MATCHES":
            constant = .string(regularExpression(from: source))
        default:
            constant = .string(stringConstant(from: source))
        }
        let ordering = ["==", "!=", "<", "<=", ">", ">="]
        if ordering.contains(symbol), random.chance(20) {
            return Fragment("%@ \(symbol)\(options) \(field)", [constant])
        }
        return Fragment("\(field) \(symbol)\(options) %@", [constant])
    }

    /// A string from the data, cut or recased, or an edge string.
    private mutating func stringConstant(from source: [String]) -> String {
        guard !source.isEmpty, random.chance(72) else { return random.pick(Self.edgeStrings) }
        let value = random.pick(source)
        let characters = Array(value)
        guard !characters.isEmpty else { return value }
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return String(characters.prefix(Int.random(in: 1...min(4, characters.count), using: &random)))
        case 1: return String(characters.suffix(Int.random(in: 1...min(4, characters.count), using: &random)))
        case 2:
            let start = Int.random(in: 0..<characters.count, using: &random)
            let end = Int.random(in: start...characters.count, using: &random)
            return String(characters[start..<end])
        case 3: return value.uppercased()
        case 4: return value.lowercased()
        case 5: return TextFolding.fold(value, options: [.caseInsensitive, .diacriticInsensitive])
        default: return value
        }
    }

    private mutating func stringList(from source: [String]) -> Value {
        if random.chance(8) { return .list([]) }
        var members: [Value] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) { members.append(.string(stringConstant(from: source))) }
        if random.chance(10) { members.append(random.pick(Self.edgeNumbers)) }
        return .list(members)
    }

    private mutating func likePattern(from source: [String]) -> String {
        if source.isEmpty || random.chance(15) {
            return random.pick(["*", "?*", "", "%", "_", "*%*", "*_*", "*?", "* *", "*\\**", "[a-z]*"])
        }
        var characters = Array(stringConstant(from: source))
        for index in characters.indices where random.chance(15) {
            characters[index] = random.pick(["?", "*"])
        }
        var pattern = String(characters)
        if random.chance(40) { pattern += "*" }
        if random.chance(30) { pattern = "*" + pattern }
        return pattern
    }

    private mutating func regularExpression(from source: [String]) -> String {
        if source.isEmpty || random.chance(25) {
            return random.pick([
                ".*", "", "[A-Z].*", "[A-Z][a-z]+", ".*[0-9].*", "(?i)par.*", "a|b.*", ".*\\s.*", "[^a-z]*", "\\w+",
                "(", "[A-Z]{2}", ".", "é.*", "(?i)É.*",
            ])
        }
        let escaped = NSRegularExpression.escapedPattern(for: stringConstant(from: source))
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return escaped + ".*"
        case 1: return ".*" + escaped
        case 2: return ".*" + escaped + ".*"
        default: return escaped
        }
    }

    // MARK: Numbers

    private mutating func numberComparison() -> Fragment {
        let field = read(random.pick(Self.numberFields))
        let symbol = random.pick(["==", "!=", "<", "<=", ">", ">=", "BETWEEN", "IN"])
        let source = samples.numbers(of: field)
        let constant: Value
        switch symbol {
        case "IN":
            var members: [Value] = []
            for _ in 0..<Int.random(in: 0...4, using: &random) { members.append(numberConstant(from: source)) }
            constant = .list(members)
        case "BETWEEN":
            var bounds = [numberConstant(from: source), numberConstant(from: source)]
            if let first = bounds[0].numericValue, let second = bounds[1].numericValue, first > second, random.chance(85) {
                bounds.reverse()
            }
            constant = .list(bounds)
        default:
            constant = numberConstant(from: source)
        }
        if symbol != "IN", symbol != "BETWEEN", random.chance(20) {
            return Fragment("%@ \(symbol) \(field)", [constant])
        }
        return Fragment("\(field) \(symbol) %@", [constant])
    }

    /// A number from the data (sometimes as a double, or moved by a little), or an edge value.
    private mutating func numberConstant(from source: [Value]) -> Value {
        guard !source.isEmpty, random.chance(70) else { return random.pick(Self.edgeNumbers) }
        let value = random.pick(source)
        switch (value, Int.random(in: 0..<6, using: &random)) {
        case (.int(let integer), 0): return .double(Double(integer))
        case (.int(let integer), 1): return .double(Double(integer) + 0.5)
        case (.int(let integer), 2): return .int(integer &+ 1)
        case (.double(let double), 0): return .double(double + 0.000_01)
        case (.double(let double), 1): return .int(Int64(double.rounded()))
        default: return value
        }
    }

    // MARK: Nil

    private mutating func nilComparison() -> Fragment {
        let field = read(random.pick([
            "name", "population", "admin1code", "location", "alternatenames", "missingField", "latitude", "geonameid",
        ]))
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return Fragment("\(field) == nil")
        case 1: return Fragment("\(field) != nil")
        case 2: return Fragment("nil == \(field)")
        case 3: return Fragment("\(field) != %@", [.null])
        case 4: return Fragment("\(field) \(random.pick(["<", ">=", "BEGINSWITH", "CONTAINS"])) nil")
        default: return Fragment("%@ == \(field)", [.null])
        }
    }

    // MARK: Lists

    private mutating func listComparison() -> Fragment {
        let field = read("alternatenames")
        let source = samples.alternateNames
        let options = random.pick(Self.optionSuffixes)
        switch Int.random(in: 0..<9, using: &random) {
        case 0, 1, 2:
            let modifier = random.pick(["ANY", "ANY", "ALL", "NONE", "SOME"])
            let symbol = random.pick(["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN"])
            let constant: Value
            switch symbol {
            case "IN": constant = stringList(from: source)
            case "LIKE": constant = .string(likePattern(from: source))
            case "MATCHES": constant = .string(regularExpression(from: source))
            default: constant = .string(stringConstant(from: source))
            }
            return Fragment("\(modifier) \(field) \(symbol)\(options) %@", [constant])
        case 3:
            return Fragment("\(field) CONTAINS\(random.chance(70) ? "" : options) %@", [.string(stringConstant(from: source))])
        case 4:
            return Fragment("%@ IN\(random.chance(70) ? "" : options) \(field)", [.string(stringConstant(from: source))])
        case 5:
            let symbol = random.pick(["==", "!=", "<", "<=", ">", ">="])
            return Fragment("\(field).@count \(symbol) %@", [.int(Int64(random.pick([0, 1, 2, 3, 5, 10, 50, 200])))])
        case 6:
            let symbol = random.pick(["BEGINSWITH", "ENDSWITH", "CONTAINS", "==", "LIKE"])
            let threshold = random.pick(["> 0", "== 0", ">= 2", "< 3"])
            let constant: Value = .string(symbol == "LIKE" ? likePattern(from: source) : stringConstant(from: source))
            return Fragment("SUBQUERY(\(field), $alias, $alias \(symbol)\(options) %@).@count \(threshold)", [constant])
        case 7:
            return Fragment("ANY \(field) IN\(options) %@", [stringList(from: source)])
        default:
            return Fragment("\(field) \(random.pick(["==", "!="])) nil")
        }
    }

    // MARK: Locations

    private mutating func distanceComparison() -> Fragment {
        _ = read("location")
        let origin: Location
        if !samples.locations.isEmpty, random.chance(65) {
            let base = random.pick(samples.locations)
            origin = random.chance(50) ? base : Location(
                latitude: min(90, max(-90, base.latitude + Double.random(in: -1...1, using: &random))),
                longitude: min(180, max(-180, base.longitude + Double.random(in: -1...1, using: &random))))
        } else {
            origin = Location(
                latitude: random.chance(10) ? random.pick([90.0, -90.0, 0.0]) : Double.random(in: -90...90, using: &random),
                longitude: random.chance(10) ? random.pick([180.0, -180.0, 0.0]) : Double.random(in: -180...180, using: &random))
        }
        let radius: Value = random.chance(80)
            ? random.pick([0, 1, 1_000, 50_000, 300_000, 2_000_000, 20_000_000, 25_000_000, -1, 150_000.5])
            : .double(Double.random(in: 0...5_000_000, using: &random))
        let distance = random.chance(85)
            ? "distanceToLocation:fromLocation:(location, %@)"
            : "distanceToLocation:fromLocation:(%@, location)"
        let symbol = random.pick(["<", "<=", ">", ">="])
        if random.chance(25) {
            return Fragment("%@ \(symbol) \(distance)", [radius, .location(origin)])
        }
        return Fragment("\(distance) \(symbol) %@", [.location(origin), radius])
    }

    // MARK: Full text

    private mutating func fullTextSearch() -> Fragment {
        _ = read("name")
        let text: String
        if samples.words.isEmpty || random.chance(20) {
            text = random.pick(["", "the", "zzqx", "san jose", "São", "日本", "of the", "PARIS", "-", "e\u{301}cole"])
        } else {
            var words = [random.pick(samples.words)]
            if random.chance(30) { words.append(random.pick(samples.words)) }
            text = words.map { random.chance(30) ? $0.lowercased() : $0 }.joined(separator: " ")
        }
        return Fragment("self CONTAINS\(random.chance(10) ? "[cd]" : "") %@", [.string(text)])
    }

    // MARK: Several fields, arithmetic, metadata

    private mutating func twoFieldComparison() -> Fragment {
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            return Fragment("\(read("latitude")) \(random.pick(["<", ">", "==", "!="])) \(read("longitude"))")
        case 1:
            return Fragment("\(read("population")) \(random.pick(["<", ">"])) \(read("geonameid"))")
        case 2:
            return Fragment("\(read("name")) \(random.pick(["BEGINSWITH", "CONTAINS", "ENDSWITH", "=="]))\(random.pick(Self.optionSuffixes)) \(read("countrycode"))")
        case 3:
            return Fragment("\(read("timezone")) CONTAINS\(random.pick(Self.optionSuffixes)) \(read("name"))")
        default:
            return Fragment("ANY \(read("alternatenames")) ==\(random.pick(Self.optionSuffixes)) \(read("name"))")
        }
    }

    private mutating func arithmeticComparison() -> Fragment {
        let symbol = random.pick(["<", ">", "==", ">=", "!="])
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            return Fragment("\(read("population")) * 2 \(symbol) %@", [numberConstant(from: samples.numbers(of: "population"))])
        case 1:
            return Fragment("\(read("population")) / %@ \(symbol) %@", [random.pick([1000, 0, 2.5, -1]), random.pick([10, 0, 1e6, 15.5])])
        case 2:
            return Fragment("-\(read("latitude")) \(symbol) %@", [numberConstant(from: samples.numbers(of: "latitude"))])
        case 3:
            return Fragment("\(read("latitude")) + \(read("longitude")) \(symbol) %@", [random.pick([0, 50, -100.5, 10])])
        default:
            return Fragment("\(read("population")) + %@ \(symbol) %@", [random.pick([1, .int(Int64.max), -0.5]), numberConstant(from: samples.numbers(of: "population"))])
        }
    }

    /// Functions, key paths through `SELF`, list subscripts, `IN` a string, location equality, casts.
    private mutating func otherExpressionComparison() -> Fragment {
        let names = samples.strings(of: "name")
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            let function = random.pick(["lowercase:", "uppercase:"])
            let symbol = random.pick(["==", "BEGINSWITH", "<", "CONTAINS[d]"])
            return Fragment("\(function)(\(read("name"))) \(symbol) %@", [.string(stringConstant(from: names))])
        case 1:
            let function = random.pick(["abs:", "sqrt:", "floor:", "ceiling:", "trunc:"])
            return Fragment("\(function)(\(read(random.pick(["latitude", "longitude", "population"])))) \(random.pick(["<", ">", "=="])) %@",
                            [numberConstant(from: samples.numbers(of: "latitude"))])
        case 2:
            return Fragment("SELF.\(read("name")) \(random.pick(["==", "BEGINSWITH[c]", ">"])) %@", [.string(stringConstant(from: names))])
        case 3:
            let subscriptText = random.pick(["[FIRST]", "[LAST]", "[0]", "[1]"])
            return Fragment("\(read("alternatenames"))\(subscriptText) \(random.pick(["==", "BEGINSWITH", "!="])) %@",
                            [.string(stringConstant(from: samples.alternateNames))])
        case 4:
            return Fragment("\(read("alternatenames"))[SIZE] \(random.pick(["<", ">", "=="])) %@", [.int(Int64(Int.random(in: 0...6, using: &random)))])
        case 5:
            return Fragment("\(read("name")) IN\(random.pick(Self.optionSuffixes)) %@", [.string(random.pick(names.isEmpty ? ["Paris"] : names) + " " + stringConstant(from: names))])
        case 6:
            let location = samples.locations.isEmpty ? Location(latitude: 0, longitude: 0) : random.pick(samples.locations)
            return Fragment("\(read("location")) \(random.pick(["==", "!="])) %@", [.location(location)])
        default:
            let date = random.pick([Date(timeIntervalSince1970: 0), Date.distantFuture, Date.distantPast])
            return Fragment("\(random.pick(["creationDate", "modificationDate"])) \(random.pick(["<", ">", "!=", "=="])) %@", [.date(date)])
        }
    }

    /// The derived fields: a date, a boolean, a double with gaps and a list of integers.
    private mutating func derivedFieldComparison() -> Fragment {
        let symbol = random.pick(["==", "!=", "<", "<=", ">", ">="])
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            let date = Date(timeIntervalSince1970: 1_000_000_000 - Double(Int.random(in: 0..<100_000, using: &random)) * 86_400)
            return Fragment("\(read("founded")) \(symbol) %@", [.date(random.chance(80) ? date : random.pick([Date.distantPast, Date.distantFuture]))])
        case 1:
            return Fragment("\(read("capital")) \(symbol) %@", [random.pick([true, false, 1, 0, 0.5, "YES", .null])])
        case 2:
            let number: Value = random.pick([0, 100, 100.25, 1500, 2999.25, -1, .int(Int64.max), 3000.0])
            if random.chance(25) { return Fragment("\(read("elevation")) BETWEEN %@", [.list([number, random.pick([200, 2500.5, 0])])]) }
            return Fragment("\(read("elevation")) \(symbol) %@", [number])
        case 3:
            let modifier = random.pick(["ANY", "ALL", "NONE"])
            return Fragment("\(modifier) \(read("codes")) \(symbol) %@", [random.pick([0, 1, 3, 4.5, 6, 10, -1, "3", true])])
        default:
            if random.chance(50) { return Fragment("%@ IN \(read("codes"))", [random.pick([0, 2, 3.0, 3.5, 10])]) }
            return Fragment("\(read("codes")) CONTAINS %@", [random.pick([0, 2, 3.0, 3.5, 10])])
        }
    }

    private mutating func metadataTest() -> Fragment {
        random.pick([
            Fragment("creationDate != nil"), Fragment("modificationDate == nil"), Fragment("recordChangeTag != nil"),
            Fragment("recordName BEGINSWITH %@", [.string(random.pick(["1", "2", "29", "edge-", "3"]))]),
            Fragment("recordName IN %@", [.list((0..<3).map { _ in random.pick(samples.values["recordName"] ?? ["1"]) })]),
        ])
    }

    // MARK: Sorts

    private mutating func sort() -> Sort {
        let key = random.pick([
            "name", "name", "countrycode", "population", "timezone", "admin1code", "latitude", "longitude", "geonameid",
            "recordName", "missingField", "location", "creationDate", "founded", "capital", "elevation",
        ])
        let ascending = random.chance(60)
        if key == "location" {
            let origin = samples.locations.isEmpty ? Location(latitude: 0, longitude: 0) : random.pick(samples.locations)
            return Sort.distance(from: origin, key: read(key), ascending: ascending)
        }
        return Sort(read(key), ascending: ascending, comparison: random.pick(SortComparison.allCases))
    }
}
