package chat

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"mcpdesk/backend/attach"
	"mcpdesk/backend/llm"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
)

// Attachments (issue 16, SPEC D10): a file is checked and stored when it
// is attached (AddAttachment), before the message is sent; a message then
// names it by reference. What a model is sent of each: an image as an
// image (models known to see none refuse before sending), a text file or a
// PDF's text as text after the message, named and fenced.

// AddAttachment checks a file the user attaches (attach.Prepare: images
// downscaled, a PDF's text extracted) and stores it; the reference it
// returns goes with Send.
func (e *Engine) AddAttachment(ctx context.Context, name string, data []byte) (store.Attachment, error) {
	f, err := attach.Prepare(name, data)
	if err != nil {
		return store.Attachment{}, err
	}
	hash, err := e.st.PutAttachment(ctx, f.MIMEType, f.Data)
	if err != nil {
		return store.Attachment{}, err
	}
	a := store.Attachment{Name: f.Name, MIMEType: f.MIMEType, Kind: store.AttachmentKind(f.Kind), Hash: hash,
		Size: int64(len(f.Data)), Width: f.Width, Height: f.Height, Pages: f.Pages}
	if f.Kind == attach.PDF {
		if a.TextHash, err = e.st.PutAttachment(ctx, "text/plain; charset=utf-8", []byte(f.Text)); err != nil {
			return store.Attachment{}, err
		}
	}
	return a, nil
}

// checkAttachments makes the references a message is sent with true: each
// names stored bytes, and its type, kind and size are the stored ones
// (whatever the caller said), its name a clean one.
func (e *Engine) checkAttachments(ctx context.Context, list []store.Attachment) ([]store.Attachment, error) {
	out := make([]store.Attachment, 0, len(list))
	for _, a := range list {
		name := attach.CleanName(a.Name)
		mt, size, err := e.st.AttachmentType(ctx, a.Hash)
		if errors.Is(err, store.ErrAttachmentNotFound) {
			return nil, usererr.New(usererr.ChatNoAttachment, usererr.Params{"name": name})
		}
		if err != nil {
			return nil, err
		}
		clean := store.Attachment{Name: name, MIMEType: mt, Hash: a.Hash, Size: size}
		switch {
		case strings.HasPrefix(mt, "image/"):
			clean.Kind, clean.Width, clean.Height = store.AttachImage, max(a.Width, 0), max(a.Height, 0)
		case mt == "application/pdf":
			if _, _, err := e.st.AttachmentType(ctx, a.TextHash); err != nil {
				return nil, usererr.New(usererr.ChatNoAttachment, usererr.Params{"name": name})
			}
			clean.Kind, clean.TextHash, clean.Pages = store.AttachPDF, a.TextHash, max(a.Pages, 0)
		default:
			clean.Kind = store.AttachText
		}
		out = append(out, clean)
	}
	return out, nil
}

// checkImages refuses images for a model known to see none, before the
// message is stored.
func (e *Engine) checkImages(ctx context.Context, conv store.Conversation, list []store.Attachment) error {
	has := false
	for _, a := range list {
		has = has || a.Kind == store.AttachImage
	}
	if !has {
		return nil
	}
	routes, err := e.models.Routes(ctx, resolveModel(conv))
	if err != nil || len(routes) == 0 {
		return nil // the turn says what is wrong with the model
	}
	if !takesImages(ctx, routes[0]) {
		return usererr.New(usererr.ChatNoImages, usererr.Params{"model": routes[0].Target.Label})
	}
	return nil
}

// takesImages is whether the model of route may be sent images: what its
// provider says (Ollama), else what its name says (llm.TakesImages).
func takesImages(ctx context.Context, route providers.Route) bool {
	model := route.Target.Model
	if model == "" {
		model = route.Ref.Model
	}
	return llm.ImagesFor(ctx, route.Target.Client, model)
}

// ModelTakesImages reports whether ref's model may be sent images (true
// when it cannot be told: the provider's error comes at sending).
func (e *Engine) ModelTakesImages(ctx context.Context, ref providers.ModelRef) bool {
	routes, err := e.models.Routes(ctx, ref)
	if err != nil || len(routes) == 0 {
		return llm.TakesImages(ref.Model)
	}
	return takesImages(ctx, routes[0])
}

// userContent is what the model is sent of user message m: its text, the
// text of its text files and PDFs after it, and its images.
func (e *Engine) userContent(ctx context.Context, m store.Message) (llm.Message, error) {
	um := llm.Message{Role: llm.RoleUser, Content: m.Content}
	var files strings.Builder
	for _, a := range m.Attachments {
		switch a.Kind {
		case store.AttachImage:
			mt, data, err := e.st.AttachmentData(ctx, a.Hash)
			if err != nil {
				return llm.Message{}, fmt.Errorf("attachment %q: %w", a.Name, err)
			}
			um.Images = append(um.Images, llm.Image{MIMEType: mt, Data: base64.StdEncoding.EncodeToString(data)})
		case store.AttachPDF, store.AttachText:
			hash := a.Hash
			if a.Kind == store.AttachPDF {
				hash = a.TextHash
			}
			_, data, err := e.st.AttachmentData(ctx, hash)
			if err != nil {
				return llm.Message{}, fmt.Errorf("attachment %q: %w", a.Name, err)
			}
			fmt.Fprintf(&files, "\n\nAttached file %q (%s", a.Name, a.MIMEType)
			if a.Kind == store.AttachPDF {
				fmt.Fprintf(&files, ", the text of its %d pages", a.Pages)
			}
			files.WriteString("):\n")
			files.WriteString(strings.TrimRight(store.Fenced("", string(data)), "\n"))
		}
	}
	if files.Len() > 0 {
		um.Content = strings.TrimRight(um.Content, "\n") + files.String()
	}
	return um, nil
}
