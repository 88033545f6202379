package main

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
)

// Mode "forms" (issue 12, point 12c): not an attack but a shape that
// caught a new user out.
//
// Resources docs://guide/README.md and docs://guide/structure.md are
// markdown; the first links to the second relatively ("structure.md"), as
// a repository's docs do. The server offers no prompts.

func init() {
	register(mode{
		name:  "forms",
		doc:   "markdown resources that link to each other relatively (README.md → structure.md); no prompts",
		setup: setupForms,
	})
}

// Texts of the forms mode, for tests to look for.
const (
	FormsReadme    = "docs://guide/README.md"
	FormsStructure = "docs://guide/structure.md"
	// FormsStructureText is the heading of structure.md.
	FormsStructureText = "Structure of the guide"
)

func setupForms(h *host) {
	for _, r := range []struct{ uri, name, text string }{
		{FormsReadme, "README.md", "# The guide\n\nStart with [the structure](structure.md), then [the web page](https://example.com/guide).\n"},
		{FormsStructure, "structure.md", "# " + FormsStructureText + "\n\nBack to the [README](README.md).\n"},
	} {
		h.Server.AddResource(mcp.NewResource(r.uri, r.name, mcp.WithMIMEType("text/markdown")),
			func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/markdown", Text: r.text}}, nil
			})
	}
}
