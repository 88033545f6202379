//go:build linux && (desktop || dev)

// The C half of guard_linux.go: finds the app's WebKitWebView on the
// GTK main thread and answers its decide-policy signal by asking Go
// (backend/websec decides; this file only carries the question).

#include <stdint.h>
#include <stdlib.h>
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include "_cgo_export.h"
#include "guard_linux.h"

#define NAVGUARD_KEY "mcpdesk-navguard"
#define IPCGATE_KEY "mcpdesk-ipcgate"

// Wails v2's own entry for a message from the page (an exported Go function
// of its Linux frontend, the one its handler calls). Weak: a binary without
// Wails' window (a test) has none, and the gate then stays out of the way.
extern void processBindingMessage(char *message, char *source) __attribute__((weak));

// The wrapper script of the bridge gate (gate.go), set by the first watch.
static char *ipcgate_script = NULL;

// Kinds, as websec.Kind.
enum { KIND_NAVIGATE = 0, KIND_NEW_WINDOW = 1, KIND_MAIN_RESPONSE = 2, KIND_SUB_RESPONSE = 3 };

static gboolean navguard_decide_policy(WebKitWebView *view, WebKitPolicyDecision *decision,
                                       WebKitPolicyDecisionType type, gpointer data)
{
    uintptr_t h = (uintptr_t)data;
    const char *uri = NULL;
    int kind;
    switch (type) {
    case WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION:
    case WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION: {
        WebKitNavigationAction *action =
            webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(decision));
        WebKitURIRequest *request = action ? webkit_navigation_action_get_request(action) : NULL;
        uri = request ? webkit_uri_request_get_uri(request) : NULL;
        kind = type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION ? KIND_NAVIGATE : KIND_NEW_WINDOW;
        break;
    }
    case WEBKIT_POLICY_DECISION_TYPE_RESPONSE: {
        WebKitResponsePolicyDecision *rd = WEBKIT_RESPONSE_POLICY_DECISION(decision);
        WebKitURIResponse *response = webkit_response_policy_decision_get_response(rd);
        uri = response ? webkit_uri_response_get_uri(response) : NULL;
        kind = KIND_MAIN_RESPONSE;
#if WEBKIT_CHECK_VERSION(2, 40, 0)
        if (!webkit_response_policy_decision_is_main_frame_main_resource(rd))
            kind = KIND_SUB_RESPONSE;
#endif
        break;
    }
    default:
        // A kind of decision this WebKit is newer than: refuse it.
        webkit_policy_decision_ignore(decision);
        return TRUE;
    }
    if (navguardDecide(h, kind, (char *)(uri ? uri : "")))
        return FALSE; // WebKit's own handling
    webkit_policy_decision_ignore(decision);
    return TRUE;
}

// ipcgate_message replaces Wails' handler of the "external" script
// message: Go's gate says whether the message came from the app's page
// (and strips the secret); only then is it handed to Wails, as Wails' own
// handler would have (with the view's URI as the source).
static void ipcgate_message(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer data)
{
    uintptr_t h = (uintptr_t)data;
    JSCValue *value = webkit_javascript_result_get_js_value(result);
    char *message = jsc_value_to_string(value);
    char *pass = ipcgateAdmit(h, message);
    g_free(message);
    if (pass == NULL)
        return;
    WebKitWebView *view = g_object_get_data(G_OBJECT(manager), IPCGATE_KEY);
    const char *uri = view ? webkit_web_view_get_uri(view) : NULL;
    char *source = uri ? g_strdup(uri) : NULL;
    processBindingMessage(pass, source);
    free(pass);
    g_free(source);
}

// ipcgate_install puts the gate between view's page and Wails: the
// wrapper script for the top frame of every later load (and now, for the
// page already shown), and ipcgate_message in place of Wails' handler.
// 1: installed; 0: already; -1: no Wails handler to call; -2: Wails'
// handler not found (a Wails that works differently: nothing is changed).
static int ipcgate_install(WebKitWebView *view, uintptr_t h)
{
    if (processBindingMessage == NULL || ipcgate_script == NULL)
        return -1;
    WebKitUserContentManager *manager = webkit_web_view_get_user_content_manager(view);
    if (manager == NULL)
        return -2;
    if (g_object_get_data(G_OBJECT(manager), IPCGATE_KEY))
        return 0;
    guint signal = g_signal_lookup("script-message-received", WEBKIT_TYPE_USER_CONTENT_MANAGER);
    GQuark detail = g_quark_from_string("external");
    gulong wails = g_signal_handler_find(manager, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DETAIL, signal, detail, NULL, NULL, NULL);
    if (wails == 0)
        return -2;
    WebKitUserScript *script = webkit_user_script_new(ipcgate_script, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                                      WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
    webkit_user_content_manager_add_script(manager, script);
    webkit_user_script_unref(script);
    while (wails != 0) {
        g_signal_handler_disconnect(manager, wails);
        wails = g_signal_handler_find(manager, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DETAIL, signal, detail, NULL, NULL, NULL);
    }
    g_object_set_data(G_OBJECT(manager), IPCGATE_KEY, view);
    g_signal_connect(manager, "script-message-received::external", G_CALLBACK(ipcgate_message), (gpointer)h);
    // The page shown now was loaded before the script was added.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    webkit_web_view_run_javascript(view, ipcgate_script, NULL, NULL, NULL);
#pragma GCC diagnostic pop
    return 1;
}

// navguard_hook connects to view unless it is hooked already or shows a
// page that is not the app's (the developer tools' inspector).
static int navguard_hook(WebKitWebView *view, uintptr_t h)
{
    if (g_object_get_data(G_OBJECT(view), NAVGUARD_KEY))
        return 0;
    const char *uri = webkit_web_view_get_uri(view);
    // No URI yet: the view is about to load the app's start page.
    if (uri && *uri && !navguardIsAppPage(h, (char *)uri))
        return 0;
    g_signal_connect(view, "decide-policy", G_CALLBACK(navguard_decide_policy), (gpointer)h);
    g_object_set_data(G_OBJECT(view), NAVGUARD_KEY, GINT_TO_POINTER(1));
    ipcgateInstalled(h, ipcgate_install(view, h));
    return 1;
}

static int navguard_walk(GtkWidget *widget, uintptr_t h)
{
    if (WEBKIT_IS_WEB_VIEW(widget))
        return navguard_hook(WEBKIT_WEB_VIEW(widget), h);
    int n = 0;
    if (GTK_IS_CONTAINER(widget)) {
        GList *children = gtk_container_get_children(GTK_CONTAINER(widget));
        for (GList *l = children; l != NULL; l = l->next)
            n += navguard_walk(GTK_WIDGET(l->data), h);
        g_list_free(children);
    }
    return n;
}

static gboolean navguard_search(gpointer data)
{
    uintptr_t h = (uintptr_t)data;
    int hooked = 0;
    GList *tops = gtk_window_list_toplevels();
    for (GList *l = tops; l != NULL; l = l->next)
        hooked += navguard_walk(GTK_WIDGET(l->data), h);
    g_list_free(tops);
    navguardSearched(h, hooked);
    return G_SOURCE_REMOVE;
}

void navguard_watch(uintptr_t h, const char *ipc_script)
{
    if (ipcgate_script == NULL && ipc_script != NULL)
        ipcgate_script = g_strdup(ipc_script);
    g_idle_add(navguard_search, (gpointer)h);
}

static void navguard_reload_walk(GtkWidget *widget)
{
    if (WEBKIT_IS_WEB_VIEW(widget)) {
        // Only views the guard watches: the app's own pages.
        if (g_object_get_data(G_OBJECT(widget), NAVGUARD_KEY))
            webkit_web_view_reload(WEBKIT_WEB_VIEW(widget));
        return;
    }
    if (GTK_IS_CONTAINER(widget)) {
        GList *children = gtk_container_get_children(GTK_CONTAINER(widget));
        for (GList *l = children; l != NULL; l = l->next)
            navguard_reload_walk(GTK_WIDGET(l->data));
        g_list_free(children);
    }
}

static gboolean navguard_reload_now(gpointer data)
{
    GList *tops = gtk_window_list_toplevels();
    for (GList *l = tops; l != NULL; l = l->next)
        navguard_reload_walk(GTK_WIDGET(l->data));
    g_list_free(tops);
    return G_SOURCE_REMOVE;
}

void navguard_reload(void)
{
    g_idle_add(navguard_reload_now, NULL);
}
