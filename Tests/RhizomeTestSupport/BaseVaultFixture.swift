import Foundation

/// A small vault in the style of real ones for Bases tests: books with dates, numbers, lists and link
/// properties (one to a person without a note), people, a meeting, a daily note with a `base` block and an
/// embedded base, a note without frontmatter carrying only a nested inline tag, an attachment, declared
/// property types, and `.base` files that use filters, formulas, sorts, groups, limits and summaries.
public enum BaseVaultFixture {
    public static func make() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        for (path, text) in files { try vault.write(path, text) }
        try vault.write("Attachments/emma.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        return vault
    }

    public static let files: [(String, String)] = [
        (".obsidian/types.json", #"{"types": {"published": "date", "rating": "number", "isbn": "text"}}"#),
        ("Books/Dune.md", """
            ---
            type: book
            author: "[[Frank Herbert]]"
            rating: 5
            pages: 412
            published: 1965-08-01
            isbn: 1965-08-01
            status: finished
            genres: [scifi, classic]
            tags: [book, scifi/classic]
            ---
            # Dune

            Notes on [[Frank Herbert]]'s book. #favorite
            """),
        ("Books/Neuromancer.md", """
            ---
            type: book
            author: "[[William Gibson]]"
            rating: 4
            pages: 271
            published: 1984-07-01
            status: reading
            genres: [scifi]
            tags: [book, scifi/cyberpunk]
            ---
            # Neuromancer
            """),
        ("Books/Emma.md", """
            ---
            type: book
            author: "[[Jane Austen]]"
            rating: 3
            pages: 474
            published: 1815-12-23
            status: to-read
            cover: "[[emma.png]]"
            tags: [book, classic]
            ---
            # Emma
            """),
        ("Books/Untitled draft.md", """
            A book idea without properties yet. #book/draft
            """),
        ("People/Frank Herbert.md", """
            ---
            type: person
            born: 1920
            tags: [person]
            ---
            # Frank Herbert
            """),
        ("People/Jane Austen.md", """
            ---
            type: person
            born: 1775
            tags: [person]
            ---
            # Jane Austen
            """),
        ("Meetings/2025-05-20 Book club.md", """
            ---
            type: meeting
            date: 2025-05-20
            attendees:
              - "[[Frank Herbert]]"
              - "[[Jane Austen]]"
              - Maya
            books: ["[[Dune]]", "[[Emma]]"]
            tags: [meetings]
            ---
            # Book club

            We compared [[Dune]] and [[Emma]].
            """),
        ("Daily/2025-05-27.md", """
            ---
            type: daily
            ---
            # 2025-05-27

            Reread the start of [[Dune]].

            ```base
            filters: this.file.hasLink(file)
            views:
              - type: table
                name: Linked from here
                order: [file.name]
            ```

            ![[Books.base#Long reads]]
            """),
        ("Bases/Books.base", """
            filters:
              and:
                - file.hasTag("book")
                - file.ext == "md"
            formulas:
              age: '(date("2025-01-01") - published).days / 365.25'
              years: 'formula.age.floor()'
              label: 'file.basename + " (" + if(author, author.toString(), "?") + ")"'
              per_page: '(rating / pages).toFixed(4)'
            properties:
              note.rating:
                displayName: Stars
              formula.years:
                displayName: Years old
            summaries:
              pagesPerBook: 'values.mean().round(1)'
            views:
              - type: table
                name: Shelf
                order:
                  - file.name
                  - author
                  - rating
                  - pages
                  - published
                  - formula.years
                sort:
                  - property: rating
                    direction: DESC
                summaries:
                  pages: Sum
                  rating: Average
              - type: table
                name: By status
                groupBy:
                  property: status
                  direction: ASC
                order: [file.name, status, pages]
                summaries:
                  pages: pagesPerBook
              - type: table
                name: Long reads
                filters: 'pages > 300'
                order: [file.name, pages]
                sort:
                  - property: pages
                    direction: DESC
                limit: 1
              - type: cards
                name: Covers
                filters:
                  not:
                    - cover.isEmpty()
                order: [file.name, cover]
                image: note.cover
            """),
        ("Bases/People.base", """
            filters: 'type == "person"'
            formulas:
              mentions: file.backlinks.length
              books: 'file.backlinks.filter(value.asFile().hasTag("book")).length'
            views:
              - type: table
                name: People
                order: [file.name, born, formula.mentions, formula.books]
                sort:
                  - property: born
                    direction: ASC
              - type: table
                name: Meetings with them
                filters: 'file.backlinks.filter(value.asFile().properties.type == "meeting").length > 0'
                order: [file.name]
            """),
        ("Bases/Related.base", """
            filters:
              and:
                - file.path != this.file.path
                - or:
                    - file.hasLink(this)
                    - this.file.hasLink(file)
            views:
              - type: list
                name: Related
                order: [file.name, type]
            """),
    ]
}
