// Package attach turns a file a user attaches to a message (issue 16, SPEC
// D10) into what the chat stores and sends: an image (PNG, JPEG, WebP,
// GIF), downscaled to what providers take; a text or code file, as UTF-8;
// or a PDF, with the text extracted from it (github.com/ledongthuc/pdf, a
// pure-Go reader). Every byte is the user's file, but files come from
// anywhere (a download, a paste): the type is read from the bytes, never
// from the name alone, and each kind has a limit. It knows nothing of the
// store or the chat.
package attach

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // decodes GIF
	"image/jpeg"
	"image/png"
	"net/http"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // decodes WebP
)

// Limits.
const (
	// MaxFileBytes bounds a file as attached.
	MaxFileBytes = 25 << 20
	// MaxTextBytes bounds a text file (the model reads all of it).
	MaxTextBytes = 1 << 20
	// MaxPDFText bounds the text taken from a PDF.
	MaxPDFText = 1 << 20
	// MaxImageSide is the longest side an image is sent with: OpenAI scales
	// larger ones down to 2048 itself, and other providers refuse or choke.
	MaxImageSide = 2048
	// MaxImageBytes is the largest image sent (Anthropic-compatible
	// gateways refuse over 5 MB; base64 adds a third).
	MaxImageBytes = 5 << 20
	// MaxImagePixels bounds an image to decode (a small file can claim a
	// huge canvas).
	MaxImagePixels = 50_000_000
)

// Kind is what a file is to the model.
type Kind string

const (
	Image Kind = "image"
	Text  Kind = "text"
	PDF   Kind = "pdf"
)

// File is an attached file ready to store.
type File struct {
	Name     string
	MIMEType string
	Kind     Kind
	// Data is what is stored and sent (an image after downscaling).
	Data []byte
	// Text is a PDF's extracted text.
	Text          string
	Width, Height int
	Pages         int
	// Downscaled says an image was made smaller to fit the limits.
	Downscaled bool
}

// ErrUnsupported is wrapped by the error for a file of a kind the chat
// does not attach.
var ErrUnsupported = errors.New("MCP Desk attaches images (PNG, JPEG, WebP, GIF), PDFs and text files")

// Prepare checks a file and makes it ready to store.
func Prepare(name string, data []byte) (File, error) {
	name = CleanName(name)
	if len(data) == 0 {
		return File{}, fmt.Errorf("%s is empty", name)
	}
	if len(data) > MaxFileBytes {
		return File{}, fmt.Errorf("%s is %s: the limit is %d MB", name, sizeOf(len(data)), MaxFileBytes>>20)
	}
	switch sniffed := http.DetectContentType(data); {
	case sniffed == "image/png" || sniffed == "image/jpeg" || sniffed == "image/gif" || sniffed == "image/webp":
		return prepareImage(name, sniffed, data)
	case sniffed == "application/pdf":
		return preparePDF(name, data)
	case isText(data):
		if len(data) > MaxTextBytes {
			return File{}, fmt.Errorf("%s is %s of text: the limit is %d MB", name, sizeOf(len(data)), MaxTextBytes>>20)
		}
		return File{Name: name, MIMEType: textType(name), Kind: Text, Data: data}, nil
	default:
		return File{}, fmt.Errorf("%s is %s: %w", name, sniffed, ErrUnsupported)
	}
}

// isText: valid UTF-8 without NUL or other control characters but tab,
// newline, carriage return and form feed (a BOM is fine).
func isText(data []byte) bool {
	if !utf8.Valid(data) {
		return false
	}
	for _, b := range data {
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' {
			return false
		}
	}
	return true
}

// textType names a text file's type by its extension (for the model and
// for exports); text/plain when it has none we know.
func textType(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown":
		return "text/markdown"
	case ".json":
		return "application/json"
	case ".csv":
		return "text/csv"
	case ".html", ".htm":
		return "text/html"
	case ".xml":
		return "application/xml"
	case ".yaml", ".yml":
		return "application/yaml"
	}
	return "text/plain"
}

func prepareImage(name, mimeType string, data []byte) (File, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return File{}, fmt.Errorf("%s is not a readable %s: %w", name, mimeType, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > MaxImagePixels {
		return File{}, fmt.Errorf("%s is %d×%d pixels: the limit is %d megapixels", name, cfg.Width, cfg.Height, MaxImagePixels/1_000_000)
	}
	f := File{Name: name, MIMEType: mimeType, Kind: Image, Data: data, Width: cfg.Width, Height: cfg.Height}
	if max(cfg.Width, cfg.Height) <= MaxImageSide && len(data) <= MaxImageBytes {
		return f, nil
	}
	// An animated GIF would lose its frames: its first one is sent.
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return File{}, fmt.Errorf("%s is not a readable %s: %w", name, mimeType, err)
	}
	w, h := cfg.Width, cfg.Height
	if s := max(w, h); s > MaxImageSide {
		w, h = max(1, w*MaxImageSide/s), max(1, h*MaxImageSide/s)
	}
	for {
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
		out, outType, err := encode(dst, mimeType)
		if err != nil {
			return File{}, fmt.Errorf("%s: %w", name, err)
		}
		if len(out) <= MaxImageBytes || w <= 256 {
			f.Data, f.MIMEType, f.Width, f.Height, f.Downscaled = out, outType, w, h, true
			if len(out) > MaxImageBytes {
				return File{}, fmt.Errorf("%s stays larger than %d MB however small it is made", name, MaxImageBytes>>20)
			}
			return f, nil
		}
		w, h = max(1, w*3/4), max(1, h*3/4)
	}
}

// encode writes a downscaled image: PNG for PNG (and GIF: both may be
// transparent), JPEG otherwise. There is no WebP encoder in Go's libraries.
func encode(img image.Image, from string) ([]byte, string, error) {
	var b bytes.Buffer
	if from == "image/png" || from == "image/gif" {
		if err := png.Encode(&b, img); err != nil {
			return nil, "", err
		}
		if b.Len() <= MaxImageBytes || !opaque(img) {
			return b.Bytes(), "image/png", nil
		}
		b.Reset()
	}
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		return nil, "", err
	}
	return b.Bytes(), "image/jpeg", nil
}

func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

func preparePDF(name string, data []byte) (f File, err error) {
	// The reader panics on some malformed files: that is a bad file, not a crash.
	defer func() {
		if r := recover(); r != nil {
			f, err = File{}, fmt.Errorf("%s is not a PDF MCP Desk can read: %v", name, r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return File{}, fmt.Errorf("%s is not a PDF MCP Desk can read: %w", name, err)
	}
	var text strings.Builder
	pages := r.NumPage()
	for i := 1; i <= pages && text.Len() < MaxPDFText; i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		t, err := p.GetPlainText(nil)
		if err != nil {
			return File{}, fmt.Errorf("%s: page %d: %w", name, i, err)
		}
		if text.Len() > 0 {
			text.WriteString("\n\n")
		}
		text.WriteString(strings.TrimSpace(t))
	}
	s := strings.ToValidUTF8(text.String(), "")
	if len(s) > MaxPDFText {
		s = strings.ToValidUTF8(s[:MaxPDFText], "")
	}
	if strings.TrimSpace(s) == "" {
		return File{}, fmt.Errorf("%s has no text to read (a scanned PDF holds only pictures of pages)", name)
	}
	return File{Name: name, MIMEType: "application/pdf", Kind: PDF, Data: data, Text: s, Pages: pages}, nil
}

// CleanName is a file's name as kept: its last path segment, without
// control characters, at most 200 bytes; "file" when nothing is left.
func CleanName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if len(name) > 200 {
		name = strings.ToValidUTF8(name[:200], "")
	}
	if name == "" {
		return "file"
	}
	return name
}

func sizeOf(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KB", (n+1023)>>10)
}
