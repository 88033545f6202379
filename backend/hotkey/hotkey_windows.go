//go:build windows

package hotkey

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/windows"
)

var (
	user32            = windows.NewLazySystemDLL("user32.dll")
	procRegister      = user32.NewProc("RegisterHotKey")
	procUnregister    = user32.NewProc("UnregisterHotKey")
	procGetMessage    = user32.NewProc("GetMessageW")
	procPostThreadMsg = user32.NewProc("PostThreadMessageW")
)

const (
	modAlt      = 0x0001
	modControl  = 0x0002
	modNoRepeat = 0x4000
	vkSpace     = 0x20
	wmHotkey    = 0x0312
	wmQuit      = 0x0012
	hotkeyID    = 1
)

type msg struct {
	hwnd    uintptr
	message uint32
	wParam  uintptr
	lParam  uintptr
	time    uint32
	pt      struct{ x, y int32 }
}

// Register registers Ctrl+Alt+Space with RegisterHotKey on a thread of its
// own, whose message loop calls fn at every press. display is unused.
func Register(_ string, fn func()) (*Hotkey, error) {
	errc := make(chan error, 1)
	tid := make(chan uint32, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		r, _, err := procRegister.Call(0, hotkeyID, modControl|modAlt|modNoRepeat, vkSpace)
		if r == 0 {
			errc <- fmt.Errorf("%w (%v)", ErrTaken, err)
			return
		}
		defer procUnregister.Call(0, hotkeyID)
		tid <- windows.GetCurrentThreadId()
		errc <- nil
		var m msg
		for {
			r, _, _ := procGetMessage.Call(uintptr(unsafePointer(&m)), 0, 0, 0)
			if int32(r) <= 0 {
				return
			}
			if m.message == wmHotkey && m.wParam == hotkeyID {
				fn()
			}
		}
	}()
	if err := <-errc; err != nil {
		return nil, err
	}
	id := <-tid
	return &Hotkey{close: func() { procPostThreadMsg.Call(uintptr(id), wmQuit, 0, 0) }}, nil
}
