package attach

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"mcpdesk/backend/attach/attachtest"
	"strings"
	"testing"
)

func pngOf(t *testing.T, w, h int, alpha bool) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := uint8(255)
			if alpha && x < w/2 {
				a = 80
			}
			// Noise, so that the file is large and does not compress away.
			img.Set(x, y, color.NRGBA{uint8(x*7 ^ y*13), uint8(x * y), uint8(x + y*3), a})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestImagesWithinLimitsAreKeptAsTheyAre(t *testing.T) {
	data := pngOf(t, 300, 200, false)
	f, err := Prepare("C:\\Users\\me\\shot.png", data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != Image || f.MIMEType != "image/png" || f.Width != 300 || f.Height != 200 || f.Downscaled || !bytes.Equal(f.Data, data) || f.Name != "shot.png" {
		t.Errorf("%+v", f)
	}
	// WebP (a 1×1 lossless one), named wrongly: the bytes decide.
	webp, _ := base64.StdEncoding.DecodeString("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
	f, err = Prepare("pixel.txt", webp)
	if err != nil || f.MIMEType != "image/webp" || f.Kind != Image || f.Width != 1 {
		t.Errorf("webp: %+v %v", f, err)
	}
}

func TestLargeImagesAreDownscaled(t *testing.T) {
	big := pngOf(t, 3000, 1500, true)
	f, err := Prepare("wide.png", big)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Downscaled || f.Width != MaxImageSide || f.Height != 1024 || len(f.Data) > MaxImageBytes {
		t.Fatalf("%dx%d %d bytes downscaled=%v", f.Width, f.Height, len(f.Data), f.Downscaled)
	}
	// Transparent: still a PNG.
	if cfg, format, err := image.DecodeConfig(bytes.NewReader(f.Data)); err != nil || format != "png" || cfg.Width != MaxImageSide || f.MIMEType != "image/png" {
		t.Errorf("%v %s %+v %s", err, format, cfg, f.MIMEType)
	}
	// A JPEG stays a JPEG.
	var b bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 2500, 2500))
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	f, err = Prepare("square.jpg", b.Bytes())
	if err != nil || f.MIMEType != "image/jpeg" || f.Width != MaxImageSide || f.Height != MaxImageSide {
		t.Errorf("jpeg: %s %dx%d %v", f.MIMEType, f.Width, f.Height, err)
	}
}

// A PNG whose header claims a canvas of 100,000 × 100,000 pixels is
// refused before anything is decoded.
func TestImageBombIsRefused(t *testing.T) {
	data := pngOf(t, 2, 2, false)
	ihdr := data[8 : 8+8+13+4]
	binary.BigEndian.PutUint32(ihdr[8:], 100_000)
	binary.BigEndian.PutUint32(ihdr[12:], 100_000)
	binary.BigEndian.PutUint32(ihdr[21:], crc32.ChecksumIEEE(ihdr[4:21]))
	if _, err := Prepare("bomb.png", data); err == nil || !strings.Contains(err.Error(), "100000×100000") {
		t.Errorf("bomb: %v", err)
	}
}

func TestPDFsGiveTheirText(t *testing.T) {
	f, err := Prepare("report.pdf", attachtest.PDF("Quarterly revenue grew", "Second page here"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != PDF || f.MIMEType != "application/pdf" || f.Pages != 2 || !strings.Contains(f.Text, "Quarterly revenue grew") || !strings.Contains(f.Text, "Second page here") {
		t.Errorf("%+v", f)
	}
	if _, err := Prepare("empty.pdf", attachtest.PDF("")); err == nil || !strings.Contains(err.Error(), "no text") {
		t.Errorf("a PDF without text: %v", err)
	}
	if _, err := Prepare("broken.pdf", []byte("%PDF-1.4\n1 0 obj garbage")); err == nil || !strings.Contains(err.Error(), "broken.pdf") {
		t.Errorf("a broken PDF: %v", err)
	}
}

func TestTextFilesAndRefusals(t *testing.T) {
	f, err := Prepare("main.go", []byte("package main\n\nfunc main() {}\n"))
	if err != nil || f.Kind != Text || f.MIMEType != "text/plain" {
		t.Errorf("%+v %v", f, err)
	}
	if f, _ := Prepare("notes.md", []byte("# hi\n")); f.MIMEType != "text/markdown" {
		t.Errorf("markdown: %s", f.MIMEType)
	}
	for name, data := range map[string][]byte{
		"app.exe":   append([]byte("MZ\x90\x00"), make([]byte, 100)...),
		"latin1":    []byte("caf\xe9"),
		"empty.txt": {},
		"huge.txt":  bytes.Repeat([]byte("a"), MaxTextBytes+1),
		"huge.bin":  make([]byte, MaxFileBytes+1),
	} {
		if _, err := Prepare(name, data); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Prepare("app.exe", append([]byte("MZ\x90\x00"), make([]byte, 100)...)); !errors.Is(err, ErrUnsupported) {
		t.Errorf("unsupported: %v", err)
	}
	if got := CleanName("../../etc/\x1bpasswd"); got != "passwd" {
		t.Errorf("name: %q", got)
	}
}
