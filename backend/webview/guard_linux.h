#include <stdint.h>

// navguard_watch hooks the app's web views on the GTK main thread (any thread may call it):
// the navigation policy, and the bridge gate with ipc_script as the top frame's wrapper.
void navguard_watch(uintptr_t h, const char *ipc_script);

// navguard_reload reloads the app's hooked web views on the GTK main thread (any thread may call it).
void navguard_reload(void);
