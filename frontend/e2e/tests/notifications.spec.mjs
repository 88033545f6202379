import { register } from '../register.mjs';
import spec from '../specs/notifications.mjs';

register(spec);
