// How the logger names and marks each direction of an entry: the server's
// wire (out, in), MCP Desk's own notes (local), and the view lane of MCP
// Apps (view-in, view-out: between a view and MCP Desk).
import type { RPCEntry } from '../../api';

type Direction = RPCEntry['direction'];

export const DIR_TITLE: Record<Direction, string> = {
  out: 'logger.dir.out',
  in: 'logger.dir.in',
  local: 'loggerTruth.dir.local',
  'view-in': 'views.logger.fromView',
  'view-out': 'views.logger.toView',
};

export const DIR_GLYPH: Record<Direction, string> = { out: '→', in: '←', local: '•', 'view-in': '⇠', 'view-out': '⇢' };
