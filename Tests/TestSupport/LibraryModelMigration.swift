/// The migration from version 1 of the library model (`Library.xcdatamodel`) to version 2
/// (`Library 2.xcdatamodel`), as `SchemaMigration.description` prints it, shared by the tests
/// that migrate a store (through the Swift API and `query schema apply`).
///
/// ```swift
/// #expect(migration.description == LibraryModelMigration.description)
/// ```
public enum LibraryModelMigration {
    /// The migration's text: the versions, then one step a line.
    public static let description = """
        Library (1) → Library 2 (2):
          rename field Item.name to title
          make Item.price required, records without a value get 0.0
          rename field Book.name to title
          make Book.price required, records without a value get 0.0
          change the indexes of Book.pages from none to queryable sortable
          add field Book.edition
          remove field Book.published and its values
          rename record type Ebook to DigitalBook
          rename field DigitalBook.name to title
          make DigitalBook.price required, records without a value get 0.0
          change the indexes of DigitalBook.pages from none to queryable sortable
          add field DigitalBook.edition
          remove field DigitalBook.published and its values
        """
}
