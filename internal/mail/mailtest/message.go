package mailtest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strings"
)

// Received is one message as the server got it.
type Received struct {
	From string   // MAIL FROM
	To   []string // every RCPT TO
	// SMTPUTF8 says that MAIL FROM asked for SMTPUTF8 (RFC 6531).
	SMTPUTF8 bool
	Raw      []byte      // the DATA, as sent
	Header   mail.Header // top-level headers, undecoded
	// Subject is the Subject header with RFC 2047 words decoded.
	Subject string
	// Parts are the leaves of the MIME tree, bodies decoded.
	Parts []Part
}

// Part is one leaf of a MIME message.
type Part struct {
	ContentType string // media type without parameters, e.g. "text/plain"
	Params      map[string]string
	Filename    string // from Content-Disposition or the name parameter
	Body        []byte // after Content-Transfer-Encoding is undone
	// Within is the media type of the multipart the part sits in
	// ("multipart/alternative"), "" for a message of one part.
	Within string
}

// Text returns the first text/plain part that is not an attachment, with
// line ends as "\n".
func (r Received) Text() (string, error) {
	for _, p := range r.Parts {
		if p.ContentType == "text/plain" && p.Filename == "" {
			return string(trimCRLF(p.Body)), nil
		}
	}
	return "", errNoText
}

// Attachments returns the parts that carry a file name.
func (r Received) Attachments() []Part {
	var files []Part
	for _, p := range r.Parts {
		if p.Filename != "" {
			files = append(files, p)
		}
	}
	return files
}

// AddressHeader returns the bare addresses in header key (e.g. "Reply-To").
func (r Received) AddressHeader(key string) ([]string, error) {
	list, err := r.Header.AddressList(key)
	if err != nil {
		return nil, err
	}
	addrs := make([]string, len(list))
	for i, a := range list {
		addrs[i] = a.Address
	}
	return addrs, nil
}

func parse(raw []byte) (Received, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Received{}, err
	}
	r := Received{Raw: raw, Header: msg.Header}
	dec := new(mime.WordDecoder)
	if r.Subject, err = dec.DecodeHeader(msg.Header.Get("Subject")); err != nil {
		return r, fmt.Errorf("subject: %w", err)
	}
	r.Parts, err = leaves(textproto.MIMEHeader(msg.Header), msg.Body, "")
	return r, err
}

func leaves(h textproto.MIMEHeader, body io.Reader, within string) ([]Part, error) {
	ct := h.Get("Content-Type")
	if ct == "" {
		ct = "text/plain; charset=us-ascii"
	}
	mediaType, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return nil, fmt.Errorf("content type %q: %w", ct, err)
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		var all []Part
		for {
			p, err := mr.NextRawPart()
			if err == io.EOF {
				return all, nil
			}
			if err != nil {
				return nil, err
			}
			sub, err := leaves(p.Header, p, mediaType)
			if err != nil {
				return nil, err
			}
			all = append(all, sub...)
		}
	}
	decoded := body
	switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
	case "base64":
		decoded = base64.NewDecoder(base64.StdEncoding, stripLineEnds{body})
	case "quoted-printable":
		decoded = quotedprintable.NewReader(body)
	}
	data, err := io.ReadAll(decoded)
	if err != nil {
		return nil, fmt.Errorf("%s body: %w", mediaType, err)
	}
	p := Part{ContentType: mediaType, Params: params, Body: data, Within: within}
	if _, dp, err := mime.ParseMediaType(h.Get("Content-Disposition")); err == nil {
		p.Filename = dp["filename"]
	}
	if p.Filename == "" {
		p.Filename = params["name"]
	}
	return []Part{p}, nil
}

// stripLineEnds drops CR and LF, which base64 bodies wrap at 76 columns.
type stripLineEnds struct{ r io.Reader }

func (s stripLineEnds) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	j := 0
	for _, b := range p[:n] {
		if b != '\r' && b != '\n' {
			p[j] = b
			j++
		}
	}
	return j, err
}

// errNoText is returned by Text when a message has no text/plain part.
var errNoText = errors.New("mailtest: no text/plain part")

func trimCRLF(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }
