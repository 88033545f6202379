#include <stdint.h>

// navguard_watch hooks the app's web views on the GTK main thread (any thread may call it).
void navguard_watch(uintptr_t h);

// navguard_reload reloads the app's hooked web views on the GTK main thread (any thread may call it).
void navguard_reload(void);
