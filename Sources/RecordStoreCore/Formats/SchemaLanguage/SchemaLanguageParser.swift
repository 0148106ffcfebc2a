/// Parses schema-language text (`DEFINE SCHEMA …`) into a ``CloudKitSchemaDocument``.
///
/// Keywords are case-insensitive; names are bare (`City`) or in double quotes (`"___recordID"`,
/// `"grant"`). Lists hold one primitive type and do not nest, so parsing never recurses: its
/// work grows with the text's length only.
struct SchemaLanguageParser {
    private var lexer: SchemaLanguageLexer
    private var current: SchemaLanguageToken

    private init(_ text: String) throws(SchemaLanguageError) {
        lexer = SchemaLanguageLexer(text)
        current = try lexer.next()
    }

    /// Parses a whole document.
    static func parseDocument(_ text: String) throws(SchemaLanguageError) -> CloudKitSchemaDocument {
        var parser = try SchemaLanguageParser(text)
        return try parser.parseDocument()
    }

    /// Parses a field type alone (`LIST<STRING>`), as JSON spells it.
    static func parseFieldType(_ text: String) throws(SchemaLanguageError) -> CloudKitSchemaFieldType {
        var parser = try SchemaLanguageParser(text)
        let type = try parser.parseFieldType()
        guard case .end = parser.current.kind else { throw parser.expected("the end of the type") }
        return type
    }

    // MARK: - Tokens

    private mutating func advance() throws(SchemaLanguageError) {
        current = try lexer.next()
    }

    private func expected(_ what: String) -> SchemaLanguageError {
        .syntax(line: current.line, column: current.column, message: "expected \(what), found \(current.quotedForMessage)")
    }

    private func error(at token: SchemaLanguageToken, _ message: String) -> SchemaLanguageError {
        .syntax(line: token.line, column: token.column, message: message)
    }

    private func isKeyword(_ keyword: String) -> Bool {
        current.keyword == keyword
    }

    private func isSymbol(_ symbol: Unicode.Scalar) -> Bool {
        current.kind == .symbol(symbol)
    }

    private mutating func expectKeyword(_ keyword: String, _ what: String? = nil) throws(SchemaLanguageError) {
        guard isKeyword(keyword) else { throw expected(what ?? "'\(keyword)'") }
        try advance()
    }

    private mutating func expectSymbol(_ symbol: Unicode.Scalar, _ what: String? = nil) throws(SchemaLanguageError) {
        guard isSymbol(symbol) else { throw expected(what ?? "'\(symbol)'") }
        try advance()
    }

    /// A name: a bare word that is not a reserved word, or a quoted name.
    private mutating func parseName(_ what: String) throws(SchemaLanguageError) -> String {
        switch current.kind {
        case .quoted(let name):
            try advance()
            return name
        case .word(let word):
            guard !SchemaLanguageIdentifier.isReserved(word) else {
                throw error(at: current, "expected \(what), found the reserved word '\(word)' (write it in double quotes to use it as a name)")
            }
            try advance()
            return word
        default:
            throw expected(what)
        }
    }

    // MARK: - Grammar

    private mutating func parseDocument() throws(SchemaLanguageError) -> CloudKitSchemaDocument {
        try expectKeyword("DEFINE", "'DEFINE SCHEMA'")
        try expectKeyword("SCHEMA", "'SCHEMA' after 'DEFINE'")
        var document = CloudKitSchemaDocument()
        var roleNames: Set<String> = []
        var typeNames: Set<String> = []
        while true {
            if case .end = current.kind { return document }
            if isKeyword("CREATE") {
                let start = current
                try advance()
                try expectKeyword("ROLE", "'ROLE' after 'CREATE'")
                let role = try parseName("a role name")
                guard roleNames.insert(role).inserted else { throw error(at: start, "role '\(role)' is created twice") }
                document.roles.append(role)
                try expectSymbol(";", "';' after the role")
            } else if isKeyword("RECORD") {
                let start = current
                let recordType = try parseRecordType()
                guard typeNames.insert(recordType.name).inserted else {
                    throw error(at: start, "record type '\(recordType.name)' is defined twice")
                }
                document.recordTypes.append(recordType)
                try expectSymbol(";", "';' after the record type")
            } else {
                throw expected("'CREATE ROLE', 'RECORD TYPE' or the end of the file")
            }
        }
    }

    private mutating func parseRecordType() throws(SchemaLanguageError) -> CloudKitSchemaRecordType {
        let line = current.line
        try advance()  // RECORD
        try expectKeyword("TYPE", "'TYPE' after 'RECORD'")
        var recordType = CloudKitSchemaRecordType(name: try parseName("a record type name"), sourceLine: line)
        try expectSymbol("(", "'(' after the record type's name")
        var fieldNames: Set<String> = []
        if isSymbol(")") {
            try advance()
            return recordType
        }
        while true {
            if isKeyword("GRANT") {
                recordType.grants.append(try parseGrant())
            } else {
                let start = current
                let field = try parseField()
                guard fieldNames.insert(field.name).inserted else {
                    throw error(at: start, "field '\(field.name)' is defined twice in record type '\(recordType.name)'")
                }
                recordType.fields.append(field)
            }
            if isSymbol(",") {
                try advance()
                continue
            }
            try expectSymbol(")", "',' or ')' after the field or grant")
            return recordType
        }
    }

    private mutating func parseGrant() throws(SchemaLanguageError) -> CloudKitSchemaGrant {
        try advance()  // GRANT
        var permissions: [CloudKitSchemaPermission] = []
        while true {
            guard let keyword = current.keyword, let permission = CloudKitSchemaPermission(rawValue: keyword) else {
                throw expected("a permission (READ, CREATE, WRITE)")
            }
            permissions.append(permission)
            try advance()
            guard isSymbol(",") else { break }
            try advance()
        }
        try expectKeyword("TO", "',' or 'TO' after the permission")
        return CloudKitSchemaGrant(permissions: permissions, role: try parseName("a role name"))
    }

    private mutating func parseField() throws(SchemaLanguageError) -> CloudKitSchemaField {
        let line = current.line
        let name = try parseName("a field name or GRANT")
        let typeToken = current
        let type = try parseFieldType()
        if let systemType = CloudKitSchemaField.systemFieldType(named: name), systemType != type {
            throw error(at: typeToken, "system field '\(name)' has type \(systemType), found \(type)")
        }
        var field = CloudKitSchemaField(name: name, type: type, sourceLine: line)
        while let keyword = current.keyword, ["QUERYABLE", "SORTABLE", "SEARCHABLE"].contains(keyword) {
            let attribute = current
            let wasSet: Bool
            switch keyword {
            case "QUERYABLE":
                wasSet = field.isQueryable
                field.isQueryable = true
            case "SORTABLE":
                wasSet = field.isSortable
                field.isSortable = true
            default:
                wasSet = field.isSearchable
                field.isSearchable = true
            }
            guard !wasSet else { throw error(at: attribute, "\(keyword) appears twice for field '\(name)'") }
            guard type.allowsIndexes else {
                throw error(at: attribute, "\(keyword) is not allowed on field '\(name)' of type \(type): assets and encrypted fields cannot be indexed")
            }
            if keyword == "SORTABLE", !type.allowsSortable {
                throw error(at: attribute, "SORTABLE is not allowed on field '\(name)' of type \(type) (sortable types: STRING, INT64, DOUBLE, TIMESTAMP, NUMBER)")
            }
            if keyword == "SEARCHABLE", !type.allowsSearchable {
                throw error(at: attribute, "SEARCHABLE is not allowed on field '\(name)' of type \(type) (only STRING fields are searchable)")
            }
            try advance()
        }
        return field
    }

    private static let typeList = "a field type (STRING, INT64, DOUBLE, TIMESTAMP, BYTES, REFERENCE, ASSET, LOCATION, NUMBER, ENCRYPTED ..., LIST<...>)"

    /// `primitive-type | LIST < primitive-type >`.
    private mutating func parseFieldType() throws(SchemaLanguageError) -> CloudKitSchemaFieldType {
        guard isKeyword("LIST") else { return try parsePrimitiveType() }
        try advance()
        try expectSymbol("<", "'<' after 'LIST'")
        if isKeyword("LIST") { throw error(at: current, "lists do not nest: LIST<...> holds a primitive type, found 'LIST'") }
        let element = try parsePrimitiveType()
        try expectSymbol(">", "'>' after the list's type")
        return .list(element)
    }

    private mutating func parsePrimitiveType() throws(SchemaLanguageError) -> CloudKitSchemaFieldType {
        if isKeyword("ENCRYPTED") {
            try advance()
            guard let base = simpleType(current.keyword), base != .reference, base != .asset else {
                throw expected("a type after ENCRYPTED (BYTES, STRING, DOUBLE, INT64, LOCATION, TIMESTAMP)")
            }
            try advance()
            return .encrypted(base)
        }
        if isKeyword("NUMBER") {
            try advance()
            guard isKeyword("PREFERRED") else { return .number(preferredAs: nil) }
            try advance()
            try expectKeyword("AS", "'AS' after 'PREFERRED'")
            let preferred: CloudKitSchemaFieldType
            switch current.keyword ?? "" {
            case "INT64": preferred = .int64
            case "DOUBLE": preferred = .double
            default: throw expected("INT64 or DOUBLE after 'PREFERRED AS'")
            }
            try advance()
            return .number(preferredAs: preferred)
        }
        guard let type = simpleType(current.keyword) else { throw expected(Self.typeList) }
        try advance()
        return type
    }

    private func simpleType(_ keyword: String?) -> CloudKitSchemaFieldType? {
        switch keyword ?? "" {
        case "STRING": .string
        case "INT64": .int64
        case "DOUBLE": .double
        case "TIMESTAMP": .timestamp
        case "BYTES": .bytes
        case "REFERENCE": .reference
        case "ASSET": .asset
        case "LOCATION": .location
        default: nil
        }
    }
}
