"""A small stand-in for a Python SDK of the service (`Synter`), used only to run the docs' adapter
examples in tests: execute/pause/update_budget/performance over urllib, Bearer auth, retries on 429
(honouring Retry-After) and on network errors and timeouts with backoff 1 s, 2 s, 4 s.
Errors carry `.status` (0 for network and timeout), `.code` (None when the service gave none)
and `.message`, as the README's adapter example expects."""
import http.client
import json
import socket
import time
import urllib.error
import urllib.request

__version__ = "0.0.1-standin"


class SynterError(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class SynterValidationError(SynterError):
    pass


DAYS = {"LAST_7_DAYS": 7, "LAST_14_DAYS": 14, "LAST_30_DAYS": 30, "LAST_90_DAYS": 90}


def flags(args):
    out = []
    for key, value in args.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            out.append(flag)
        elif value is False or value is None:
            continue
        elif isinstance(value, list):
            for item in value:
                out += [flag, str(item)]
        else:
            out += [flag, str(value)]
    return out


class Synter:
    def __init__(self, api_key, base_url, timeout=30, max_retries=3):
        self.api_key, self.base_url, self.timeout, self.max_retries = api_key, base_url.rstrip("/"), timeout, max_retries

    def execute(self, script, args, platform=None):
        if not script:
            raise SynterValidationError(0, None, "script is required")
        body = {"script_name": script, "args": flags(args or {})}
        if platform:
            body["platform"] = platform
        return self._post("/api/v1/tools/run", body)

    def pause(self, campaign_id, platform="google"):
        return self.execute("pause_campaign", {"campaign_id": campaign_id}, platform)

    def update_budget(self, campaign_id, daily_budget, platform="google"):
        return self.execute("update_campaign_budget", {"campaign_id": campaign_id, "daily_budget": daily_budget}, platform)

    def performance(self, date_range="LAST_7_DAYS", campaign_id=None):
        args = {"days": DAYS.get(date_range, 7)}
        if campaign_id:
            args["campaign_id"] = campaign_id
        return self.execute("pull_google_ads", args, "google")

    def _post(self, path, body):
        attempt = 0
        while True:
            try:
                return self._once(path, body)
            except SynterError as e:
                retryable = e.status == 429 or e.status == 0
                if not retryable or attempt >= self.max_retries:
                    raise
                wait = getattr(e, "retry_after", None)
                time.sleep(wait if wait is not None else 2 ** attempt)
                attempt += 1

    def _once(self, path, body):
        request = urllib.request.Request(self.base_url + path, data=json.dumps(body).encode(), method="POST", headers={
            "Authorization": "Bearer " + self.api_key, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as e:
            raise self._http_error(e) from None
        except (socket.timeout, TimeoutError) as e:
            raise SynterError(0, None, "request timeout: " + str(e)) from None
        except urllib.error.URLError as e:
            reason = str(e.reason)
            raise SynterError(0, None, ("request timeout: " if "timed out" in reason else "network error: ") + reason) from None
        except (ConnectionError, OSError, http.client.HTTPException) as e:
            raise SynterError(0, None, "network error: " + repr(e)) from None

    @staticmethod
    def _http_error(e):
        try:
            payload = json.loads(e.read() or b"{}")
        except ValueError:
            payload = {}
        error = payload.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        failure = SynterError(e.code, payload.get("code"), message or e.reason)
        retry_after = e.headers.get("Retry-After")
        failure.retry_after = float(retry_after) if retry_after and retry_after.isdigit() else None
        return failure
