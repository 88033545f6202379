package notify

import (
	"encoding/xml"
	"slices"
	"strings"
	"testing"
)

func TestClickURLReadsBack(t *testing.T) {
	for _, id := range []int64{0, 1, 42, 9223372036854775807} {
		got, click := ParseClick([]string{ClickFlag, ClickURL(id)})
		if !click || got != id {
			t.Errorf("ParseClick(ClickURL(%d)) = %d, %v", id, got, click)
		}
	}
	if u := ClickURL(-5); u != "mcpdesk://window" {
		t.Errorf("ClickURL(-5) = %q, want the window", u)
	}
}

func TestParseClickTakesOnlyWhatClickURLWrites(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		id    int64
		click bool
	}{
		{nil, 0, false},
		{[]string{"mcpdesk://conversation/5"}, 0, false}, // no flag: not a click
		{[]string{"--quick-chat", ClickFlag, "mcpdesk://conversation/5"}, 0, false},
		{[]string{ClickFlag}, 0, true},
		{[]string{ClickFlag, "mcpdesk://conversation/5/"}, 5, true}, // a slash added by the launcher
		{[]string{ClickFlag, "MCPDESK://conversation/5"}, 5, true},  // schemes are case-blind
		{[]string{ClickFlag, "mcpdesk://conversation/5", "--data-dir", "/tmp/evil"}, 5, true},
		{[]string{ClickFlag, "mcpdesk://conversation/"}, 0, true},
		{[]string{ClickFlag, "mcpdesk://conversation/05"}, 0, true},
		{[]string{ClickFlag, "mcpdesk://conversation/-5"}, 0, true},
		{[]string{ClickFlag, "mcpdesk://conversation/+5"}, 0, true},
		{[]string{ClickFlag, "mcpdesk://conversation/5x"}, 0, true},
		{[]string{ClickFlag, "mcpdesk://conversation/5?x=1"}, 0, true},
		{[]string{ClickFlag, "mcpdesk://conversation/5#x"}, 0, true},
		{[]string{ClickFlag, "mcpdesk://conversation/5//"}, 0, true},
		{[]string{ClickFlag, "mcpdesk://conversation/ 5"}, 0, true},
		{[]string{ClickFlag, "mcpdesk://conversation/٥"}, 0, true},                   // an Arabic-Indic five
		{[]string{ClickFlag, "mcpdesk://conversation/9223372036854775808"}, 0, true}, // past int64
		{[]string{ClickFlag, "mcpdesk://Conversation/5"}, 0, true},
		{[]string{ClickFlag, "mcpdesk://x/../conversation/5"}, 0, true},
		{[]string{ClickFlag, "https://conversation/5"}, 0, true},
		{[]string{ClickFlag, "mcpdesk:conversation/5"}, 0, true},
		{[]string{ClickFlag, "mcpdesk://conversation/5" + strings.Repeat("0", 100)}, 0, true},
		{[]string{ClickFlag, "mcpdesk://window"}, 0, true},
		{[]string{ClickFlag, ""}, 0, true},
	} {
		id, click := ParseClick(tc.args)
		if id != tc.id || click != tc.click {
			t.Errorf("ParseClick(%q) = %d, %v; want %d, %v", tc.args, id, click, tc.id, tc.click)
		}
	}
}

func TestClickArgsKeepNothingButTheURL(t *testing.T) {
	// An unquoted launch split a hostile URL into more arguments.
	got := ClickArgs([]string{ClickFlag, "mcpdesk://conversation/5", "--data-dir", "/tmp/evil", "--quick-chat", "--devserver", "evil:1"})
	if want := []string{ClickFlag, "mcpdesk://conversation/5"}; !slices.Equal(got, want) {
		t.Fatalf("ClickArgs = %q, want %q", got, want)
	}
	// Appending to the result cannot write into the caller's arguments.
	args := []string{ClickFlag, "mcpdesk://window", "x"}
	_ = append(ClickArgs(args), "y")
	if args[2] != "x" {
		t.Fatalf("ClickArgs shares its tail with the caller: %q", args)
	}
	plain := []string{"--data-dir", "/d", "--quick-chat"}
	if got := ClickArgs(plain); !slices.Equal(got, plain) {
		t.Fatalf("a launch that is no click changed: %q", got)
	}
}

// toast is the shape of the toast XML, read back with encoding/xml.
type toast struct {
	XMLName        xml.Name `xml:"toast"`
	ActivationType string   `xml:"activationType,attr"`
	Launch         string   `xml:"launch,attr"`
	Texts          []string `xml:"visual>binding>text"`
}

func TestToastXMLCarriesTheClickAndEscapesTheText(t *testing.T) {
	msg := Notification{
		Kind:         Reply,
		Title:        `Reply "done" <b>&</b>'`,
		Body:         `"><toast launch="mcpdesk://conversation/666"><text>pwned</text>` + "\x07\nline",
		Conversation: 42,
	}
	raw := toastXML(msg)
	var got toast
	if err := xml.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("toast XML does not parse: %v\n%s", err, raw)
	}
	if got.ActivationType != "protocol" || got.Launch != "mcpdesk://conversation/42" {
		t.Fatalf("activation %q launch %q, want protocol mcpdesk://conversation/42", got.ActivationType, got.Launch)
	}
	want := []string{`Reply "done" <b>&</b>'`, `"><toast launch="mcpdesk://conversation/666"><text>pwned</text> line`}
	if !slices.Equal(got.Texts, want) {
		t.Fatalf("texts %q, want %q", got.Texts, want)
	}
	if strings.Count(raw, "<toast") != 1 || strings.Count(raw, `launch="`) != 1 {
		t.Fatalf("the body added markup: %s", raw)
	}
	if id, _ := ParseClick([]string{ClickFlag, got.Launch}); id != 42 {
		t.Fatalf("the toast's launch reads back as %d", id)
	}
	var plain toast
	if err := xml.Unmarshal([]byte(toastXML(Notification{Title: "t"})), &plain); err != nil || plain.Launch != "mcpdesk://window" {
		t.Fatalf("a toast of no conversation launches %q (%v), want the window", plain.Launch, err)
	}
}
