package store

// Full-text search over messages (see conversations.go, "Search").

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Snippet markers: SearchHit.Snippet wraps every match in SnippetStart …
// SnippetEnd. They are ASCII control characters (STX, ETX) that never occur
// in chat text, so the UI can split on them and escape each part before
// highlighting; no HTML is ever built here.
const (
	SnippetStart = "\x02"
	SnippetEnd   = "\x03"
)

// snippetLen is the length of a snippet window, in characters (markers and
// ellipses not counted); snippetLead of them come before the first match.
const (
	snippetLen  = 64
	snippetLead = 20
)

// SearchHit is one message that matches a search.
type SearchHit struct {
	ConversationID    int64  `json:"conversationId"`
	ConversationTitle string `json:"conversationTitle"`
	MessageID         int64  `json:"messageId"`
	Role              Role   `json:"role"`
	// Snippet is about 64 characters around the first match, whitespace
	// collapsed, "…" where cut, every match between SnippetStart and
	// SnippetEnd.
	Snippet   string    `json:"snippet"`
	CreatedAt time.Time `json:"createdAt"`
	// Version is the version of the answer the message belongs to and
	// Versions how many that answer has; Versions is 1 when it has one
	// (a hit in another version than the one shown says which).
	Version  int `json:"version"`
	Versions int `json:"versions"`
}

// SearchMessages finds messages whose text contains every whitespace-
// separated term of query, case-insensitively, best match first (bm25 rank,
// then newest). Hidden messages are not searched. limit <= 0 means 50; it is
// capped at 500.
//
// Terms of three or more characters go to the trigram index, each as a
// quoted FTS5 string, so the query syntax (OR, NEAR, *, -, column filters,
// quotes) is never interpreted: user text cannot make the MATCH fail. Shorter
// terms, which a trigram index cannot look up, are LIKE filters on the rows
// the index found; a query of only short terms is a LIKE scan of the
// messages from the newest back, which stops once limit rows matched.
//
// Snippets are cut in Go from the returned rows only: FTS5's snippet() would
// run for every match before the sort (a word found in 1,000 messages costs
// about 20% more with it), and the LIKE path needs the same code anyway.
func (s *Store) SearchMessages(ctx context.Context, query string, limit int) ([]SearchHit, error) {
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, 500)
	long, short := splitTerms(query)
	if len(long) == 0 && len(short) == 0 {
		return []SearchHit{}, nil
	}
	var (
		where []string
		args  []any
	)
	for _, t := range short {
		where = append(where, `m.content LIKE ? ESCAPE '\'`)
		args = append(args, "%"+escapeLike(t)+"%")
	}
	var rows []struct {
		ConversationID int64
		Title          string
		MessageID      int64
		Role           string
		Content        string
		CreatedAt      time.Time
		Version        int
		Versions       int
	}
	db := s.db.WithContext(ctx)
	var err error
	if len(long) > 0 {
		args = append([]any{ftsPhrases(long)}, args...)
		err = db.Raw(searchFTSQuery(where), append(args, limit)...).Scan(&rows).Error
	} else {
		err = db.Raw(searchLikeQuery(where), append(args, limit)...).Scan(&rows).Error
	}
	if err != nil {
		return nil, fmt.Errorf("search messages: %w", err)
	}
	marker := termsPattern(append(long, short...))
	out := make([]SearchHit, 0, len(rows))
	for _, r := range rows {
		out = append(out, SearchHit{
			ConversationID: r.ConversationID, ConversationTitle: r.Title, MessageID: r.MessageID,
			Role: Role(r.Role), Snippet: snippet(r.Content, marker), CreatedAt: r.CreatedAt,
			Version: max(r.Version, 1), Versions: max(r.Versions, r.Version, 1),
		})
	}
	return out, nil
}

// searchVersions is how many versions the answer of a hit has, found
// through the messages_by_version index.
const searchVersions = `COALESCE((SELECT MAX(v.version) FROM messages v WHERE v.version_group = m.version_group), 1)`

// searchFTSQuery is the indexed search; its first argument is the MATCH
// expression, then one per extra condition, then the limit.
func searchFTSQuery(extra []string) string {
	cond := ""
	for _, w := range extra {
		cond += " AND " + w
	}
	return `SELECT m.conversation_id, c.title, m.id AS message_id, m.role, m.created_at, m.content,
			m.version, ` + searchVersions + ` AS versions
		FROM messages_fts
		JOIN messages m ON m.id = messages_fts.rowid
		JOIN conversations c ON c.id = m.conversation_id
		WHERE messages_fts MATCH ? AND m.hidden = 0` + cond + `
		ORDER BY messages_fts.rank, m.created_at DESC, m.id DESC
		LIMIT ?`
}

// searchLikeQuery is the scan for queries of only short terms; one argument
// per condition, then the limit. Ids grow with insertion, so walking the
// rowid backwards is newest first without a sort, and the scan ends at the
// limit.
func searchLikeQuery(where []string) string {
	return `SELECT m.conversation_id, c.title, m.id AS message_id, m.role, m.created_at, m.content,
			m.version, ` + searchVersions + ` AS versions
		FROM messages m
		JOIN conversations c ON c.id = m.conversation_id
		WHERE m.hidden = 0 AND ` + strings.Join(where, " AND ") + `
		ORDER BY m.id DESC
		LIMIT ?`
}

// splitTerms splits a query at whitespace into terms the trigram index can
// look up (three characters or more) and shorter ones. Invalid UTF-8 is
// dropped, and so are duplicates.
func splitTerms(query string) (long, short []string) {
	seen := map[string]bool{}
	for _, t := range strings.Fields(strings.ToValidUTF8(query, " ")) {
		if seen[t] {
			continue
		}
		seen[t] = true
		if utf8.RuneCountInString(t) >= 3 {
			long = append(long, t)
		} else {
			short = append(short, t)
		}
	}
	return long, short
}

// ftsPhrases quotes each term as an FTS5 string — doubling any '"' inside —
// and joins them with spaces, which FTS5 reads as AND. Inside a string every
// character is literal, so no user text is ever parsed as query syntax.
func ftsPhrases(terms []string) string {
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	return strings.Join(quoted, " ")
}

// escapeLike escapes the LIKE wildcards of s for ESCAPE '\'.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// termsPattern matches any of terms case-insensitively, the longest first
// where one term starts another.
func termsPattern(terms []string) *regexp.Regexp {
	sorted := slices.Clone(terms)
	slices.SortFunc(sorted, func(a, b string) int { return len(b) - len(a) })
	quoted := make([]string, len(sorted))
	for i, t := range sorted {
		quoted[i] = regexp.QuoteMeta(t)
	}
	return regexp.MustCompile(`(?i)` + strings.Join(quoted, "|"))
}

// snippet cuts a window of content, whitespace collapsed, from snippetLead
// characters before the first match of marker, and wraps every match in it
// in SnippetStart … SnippetEnd. Without a match it is the start of content.
func snippet(content string, marker *regexp.Regexp) string {
	text := collapseSpace(content)
	loc := marker.FindStringIndex(text)
	if loc == nil {
		return clip(text, snippetLen)
	}
	start := loc[0]
	for n := 0; n < snippetLead && start > 0; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:start])
		start -= size
	}
	end := start
	for n := 0; n < snippetLen && end < len(text); n++ {
		_, size := utf8.DecodeRuneInString(text[end:])
		end += size
	}
	// Never cut a match in two.
	for _, m := range marker.FindAllStringIndex(text[start:], -1) {
		if start+m[0] < end && start+m[1] > end {
			end = start + m[1]
		}
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	b.WriteString(marker.ReplaceAllStringFunc(text[start:end], func(m string) string {
		return SnippetStart + m + SnippetEnd
	}))
	if end < len(text) {
		b.WriteString("…")
	}
	return b.String()
}
