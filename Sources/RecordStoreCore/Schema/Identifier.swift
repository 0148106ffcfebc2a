/// The rules for record type and field names, which become SQL identifiers.
package enum Identifier {
    /// Letters, digits and underscores (ASCII), starting with a letter, at most 255 characters.
    package static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 255 else { return false }
        guard (first >= 65 && first <= 90) || (first >= 97 && first <= 122) else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 95
        }
    }

    /// Checks a record type name: valid, and not starting with `sqlite_` in any case, which
    /// SQLite reserves for its own tables (`sqlite_master`, `sqlite_stat1`), so a type name
    /// never names one of them. Both engines apply the same rule.
    package static func checkRecordType(_ name: String) throws(RecordStoreError) {
        guard isValid(name), !isReservedTableName(name) else { throw .invalidRecordTypeName(name) }
    }

    /// Whether a name starts with `sqlite_`, ignoring case.
    package static func isReservedTableName(_ name: String) -> Bool {
        name.utf8.count >= 7 && name.prefix(7).lowercased() == "sqlite_"
    }

    /// Checks a field name: valid, and not a metadata name.
    package static func checkField(_ name: String, recordType: String) throws(RecordStoreError) {
        guard isValid(name), !Record.metadataFieldNames.contains(name), name != "recordType", name != "recordID" else {
            throw .invalidFieldName(name, recordType: recordType)
        }
    }
}
