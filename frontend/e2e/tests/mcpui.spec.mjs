import { register } from '../register.mjs';
import spec from '../specs/mcpui.mjs';

register(spec);
