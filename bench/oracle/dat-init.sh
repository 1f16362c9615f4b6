# shellcheck shell=sh
# Sourced by the guest's /init (init.sh) when `oracle.sh -d` built the
# initramfs, right after the text trace is read: what `trace-cmd restore`
# needs on the host to make a trace.dat of this run, in /res/dat. The
# ring buffers (consumed: the text trace was read first) and tracefs's
# metadata: the page and event headers, the formats of the enabled
# events' systems and of ftrace's own, the task names and printk formats.
d=/res/dat
mkdir -p "$d/events"
/bin/oracle-rawbuf "$t" "$d" > "$d/rawbuf.txt" 2>&1 || note "oracle-rawbuf failed"
cat "$t/events/header_page" > "$d/events/header_page"
cat "$t/events/header_event" > "$d/events/header_event"
for s in ftrace $(cut -d: -f1 /res/events | sort -u); do
	for f in "$t/events/$s"/*/format; do
		e=${f%/format}
		mkdir -p "$d/events/$s/${e##*/}" && cat "$f" > "$d/events/$s/${e##*/}/format"
	done
done
cat "$t/saved_cmdlines" > "$d/saved_cmdlines"
cat "$t/printk_formats" > "$d/printk_formats"
uname -snrm > "$d/uname"
