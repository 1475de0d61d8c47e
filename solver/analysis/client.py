"""Drive a `tessera analyze` process from Python: send queries, read answers.

    with AnalysisProcess(threads=2) as engine:
        engine.send({"id": "a", "game": "azul", "maxVisits": 500})
        answer = engine.answer_to("a")

The process runs ``python -m tessera analyze`` with this interpreter; a reader thread
moves its stdout lines into a queue, so reading can time out.
"""

import json
import queue
import subprocess
import sys
import threading

# A killed engine is gone at once; a wait past this would be a stuck process, not a slow exit.
KILLED_SECONDS = 30


class AnalysisProcess:
    def __init__(self, threads=1, env=None, cwd=None, options=()):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tessera", "analyze", "--threads", str(threads), *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
            cwd=cwd,
        )
        self.lines = queue.Queue()
        self.errors = []  # stderr lines, read so the pipe never fills
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)  # end of output

    def _read_errors(self):
        for line in self.process.stderr:
            self.errors.append(line.rstrip("\n"))

    def send(self, query):
        """Send a query (a dict, or a line of text as it is)."""
        text = query if isinstance(query, str) else json.dumps(query)
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def next(self, timeout=60):
        """The next output line as a dict; None at the end of output. TimeoutError if none comes."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no answer within {timeout} s; stderr: {self.errors[-20:]}") from None

    def answer_to(self, query_id, timeout=60):
        """The next final answer (or error) for ``query_id``, skipping other lines."""
        return self.answers_to([query_id], timeout)[query_id]

    def answers_to(self, query_ids, timeout=60):
        """{id: final answer (or error)} for each of ``query_ids``, skipping other lines."""
        found = {}
        while len(found) < len(set(query_ids)):
            line = self.next(timeout)
            if line is None:
                raise EOFError("the engine ended")
            if (
                line.get("id") in query_ids
                and not line.get("isDuringSearch")
                and "warning" not in line
                and "action" not in line
            ):
                found[line["id"]] = line
        return found

    def close(self, timeout=60):
        """Close stdin (the engine finishes its queries and ends); the rest of the output."""
        self.process.stdin.close()
        rest = []
        while (line := self.next(timeout)) is not None:
            rest.append(line)
        self.process.wait(timeout)
        return rest

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(KILLED_SECONDS)
        return False
