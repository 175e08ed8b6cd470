package mailtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"testing"
	"time"
)

type serverTLS struct {
	config *tls.Config
}

// WithTLS makes the server offer STARTTLS with a certificate for 127.0.0.1
// made on the spot; the client must trust ClientTLS.
func WithTLS(t testing.TB) Option {
	t.Helper()
	cert := selfSigned(t)
	return func(o *options) {
		o.tls = &serverTLS{config: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}}
	}
}

// ClientTLS returns a client configuration that trusts the server's
// certificate, or nil when the server has no TLS.
func (s *Server) ClientTLS() *tls.Config {
	if s.opts.tls == nil {
		return nil
	}
	pool := x509.NewCertPool()
	pool.AddCert(s.opts.tls.config.Certificates[0].Leaf)
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

func selfSigned(t testing.TB) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("mailtest: key: %v", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "mailtest"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatalf("mailtest: certificate: %v", err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatalf("mailtest: certificate: %v", err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}
}
