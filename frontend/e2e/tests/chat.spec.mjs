import { register } from '../register.mjs';
import spec from '../specs/chat.mjs';

register(spec);
